import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { HostError } from "../errors.ts";
import type { DesiredFirewallRule } from "./net_state.ts";
import {
  firewallRuleLine,
  firewallRuleText,
  parseNftTable,
  renderFirewallScript,
} from "./nft_ruleset.ts";

function rule(over: Partial<DesiredFirewallRule>): DesiredFirewallRule {
  return {
    id: "r1",
    protocol: "tcp",
    port: 22,
    action: "accept",
    direction: "input",
    iifname: null,
    source: null,
    ...over,
  };
}

Deno.test("firewallRuleText() writes each shape as nft lists it", () => {
  const cases: [Partial<DesiredFirewallRule>, string][] = [
    [{}, 'tcp dport 22 accept comment "palisade:r1"'],
    [{ port: null }, 'meta l4proto tcp accept comment "palisade:r1"'],
    [{ protocol: "udp", port: 53, action: "drop" }, 'udp dport 53 drop comment "palisade:r1"'],
    [{ action: "reject" }, 'tcp dport 22 reject with tcp reset comment "palisade:r1"'],
    [
      { protocol: "udp", port: null, action: "reject" },
      'meta l4proto udp reject comment "palisade:r1"',
    ],
    [{ protocol: "icmp", port: null }, 'meta l4proto icmp accept comment "palisade:r1"'],
    [{ protocol: "any", port: null, action: "reject" }, 'reject comment "palisade:r1"'],
    [
      { protocol: "any", port: null, action: "reject", source: "10.1.0.0/16" },
      'ip saddr 10.1.0.0/16 reject with icmp port-unreachable comment "palisade:r1"',
    ],
    [
      { iifname: "wg0", source: "10.2.3.4/32", action: "reject" },
      'iifname "wg0" ip saddr 10.2.3.4 tcp dport 22 reject with tcp reset comment "palisade:r1"',
    ],
  ];
  for (const [over, text] of cases) assertEquals(firewallRuleText(rule(over)), text);
  assertEquals(
    firewallRuleLine(rule({ direction: "forward" })),
    'forward: tcp dport 22 accept comment "palisade:r1"',
  );
});

Deno.test("firewallRuleText() refuses values that would change the nft syntax", () => {
  for (
    const bad of [
      { iifname: 'wg0" accept comment "x' },
      { source: "10.0.0.0/24 accept" },
      { source: "300.0.0.0/8" },
      { id: 'a" ; flush ruleset' },
      { protocol: "icmp" as const, port: 7 },
      { port: 70000 },
    ]
  ) {
    assertThrows(() => firewallRuleText(rule(bad)), HostError);
  }
  assertThrows(() => renderFirewallScript("x; flush ruleset", []), HostError);
});

Deno.test("renderFirewallScript() replaces the whole table in one script, rules in order per chain", () => {
  const script = renderFirewallScript("palisade", [
    rule({ id: "a" }),
    rule({ id: "b", direction: "forward", protocol: "any", port: null, action: "drop" }),
    rule({ id: "c", port: 80 }),
  ]);
  assertEquals(
    script,
    [
      "table inet palisade",
      "delete table inet palisade",
      "table inet palisade {",
      "\tchain input {",
      "\t\ttype filter hook input priority filter; policy accept;",
      '\t\ttcp dport 22 accept comment "palisade:a"',
      '\t\ttcp dport 80 accept comment "palisade:c"',
      "\t}",
      "\tchain forward {",
      "\t\ttype filter hook forward priority filter; policy accept;",
      '\t\tdrop comment "palisade:b"',
      "\t}",
      "}",
      "",
    ].join("\n"),
  );
});

Deno.test("parseNftTable() reads chains and rules, skips sets, and keeps hand-made rules without an id", () => {
  const listing = `table inet palisade {
	set blocked {
		type ipv4_addr
		elements = { 1.2.3.4, 5.6.7.8 }
	}

	chain input {
		type filter hook input priority filter; policy drop;
		tcp dport 22 accept comment "palisade:a"
		tcp dport 9999 counter accept
		ip saddr { 10.0.0.1, 10.0.0.2 } drop comment "palisade:b"
	}

	chain forward {
		type filter hook forward priority filter; policy accept;
	}

	chain mine {
		iifname "x{" drop comment "palisade:c"
	}
}
`;
  assertEquals(parseNftTable(listing), {
    present: true,
    chains: [
      "input: type filter hook input priority filter; policy drop;",
      "forward: type filter hook forward priority filter; policy accept;",
      "mine:",
    ],
    rules: [
      { chain: "input", id: "a", text: 'tcp dport 22 accept comment "palisade:a"' },
      { chain: "input", id: null, text: "tcp dport 9999 counter accept" },
      {
        chain: "input",
        id: "b",
        text: 'ip saddr { 10.0.0.1, 10.0.0.2 } drop comment "palisade:b"',
      },
      { chain: "mine", id: "c", text: 'iifname "x{" drop comment "palisade:c"' },
    ],
  });
});
