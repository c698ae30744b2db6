/**
 * Fixed vectors for the canonical signing payload and the hash chain. The
 * expected strings are written out here; the expected hashes are literal
 * values that an independent implementation (@noble/hashes) also reproduces,
 * and the pinned signature is the core's, which OpenSSL (node:crypto) accepts.
 */
import { Buffer } from "node:buffer";
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { assertEquals } from "../assert.ts";
import { canonicalPayload, entropyJson, stackJson } from "../../lib/attest/canonical.ts";
import { loadCore } from "../../lib/attest/core.ts";

/** A node:crypto public key from the raw 32 bytes (hex), through its SPKI DER form. */
function publicKeyFromRaw(hex: string): KeyObject {
  const spki = Buffer.concat([
    Buffer.from("302a300506032b6570032100", "hex"),
    Buffer.from(hex, "hex"),
  ]);
  return createPublicKey({ key: spki, format: "der", type: "spki" });
}

const fields = {
  sessionId: "0f".repeat(32),
  prevHash: "a1".repeat(32),
  timestamp: 1767225600000,
  events: [{ x: 10, y: 20.5, t: 0 }, { x: 13, y: 24.5, t: 150 }, { x: 20, y: 24.5, t: 190 }],
  stackState: { stack: [1, 4294967295, 0], ip: 9 },
  fingerprint: { aspectRatio: "1.7777777778", devicePixelRatio: "2", hardwareConcurrency: 8 },
  mutationStep: 3,
  geneCommitment: "c3".repeat(32),
};

const PAYLOAD =
  '{"entropyData":{"events":[{"t":0,"x":10,"y":20.5},{"t":150,"x":13,"y":24.5},{"t":190,"x":20,"y":24.5}]},' +
  '"fingerprint":{"aspectRatio":"1.7777777778","devicePixelRatio":"2","hardwareConcurrency":8},' +
  `"geneCommitment":"${"c3".repeat(32)}","mutationStep":3,"prevHash":"${"a1".repeat(32)}",` +
  `"sessionId":"${
    "0f".repeat(32)
  }","stackState":{"ip":9,"stack":[1,4294967295,0]},"timestamp":1767225600000}`;

const SALT = "5a".repeat(16);
const NEXT_HASH = "510cabb0fae45e97569aa827776379d8882f20f3dd8f6c9e8b716fc72f51bf08";

Deno.test("canonicalPayload() produces the documented bytes for a fixed heartbeat", () => {
  assertEquals(canonicalPayload(fields), PAYLOAD);
  assertEquals(
    entropyJson(fields.events),
    '{"events":[{"t":0,"x":10,"y":20.5},{"t":150,"x":13,"y":24.5},{"t":190,"x":20,"y":24.5}]}',
  );
  assertEquals(stackJson(fields.stackState), '{"ip":9,"stack":[1,4294967295,0]}');
});

Deno.test("H(n) of a fixed heartbeat matches the pinned value and an independent BLAKE3", async () => {
  const ts = new Uint8Array(8);
  new DataView(ts.buffer).setBigUint64(0, BigInt(fields.timestamp), true);
  const independent = bytesToHex(blake3(
    new Uint8Array([
      ...hexToBytes(SALT),
      ...hexToBytes(fields.prevHash),
      ...ts,
      ...blake3(new TextEncoder().encode(entropyJson(fields.events))),
      ...blake3(new TextEncoder().encode(stackJson(fields.stackState))),
    ]),
  ));
  const core = await loadCore();
  const wasm = core.nextHash(
    fields.prevHash,
    fields.timestamp,
    entropyJson(fields.events),
    stackJson(fields.stackState),
    SALT,
  );
  assertEquals(independent, NEXT_HASH);
  assertEquals(wasm, NEXT_HASH);
});

// RFC 8032 7.1 TEST 1: the secret seed and its public key.
const SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const PUBLIC_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

Deno.test("the signature over the fixed payload with the RFC 8032 test-1 key is pinned", async () => {
  const core = await loadCore();
  assertEquals(core.raw.keypair_from_seed(hexToBytes(SEED)), PUBLIC_KEY);
  assertEquals(core.raw.get_public_key(), PUBLIC_KEY);
  // The core signs the payload canonicalPayload() builds, as a browser does.
  const payload = canonicalPayload(fields);
  assertEquals(core.raw.sign_message(payload), SIGNATURE);
  assertEquals(bytesToHex(core.raw.signBytes(new TextEncoder().encode(payload))!), SIGNATURE);
  // An independent implementation (OpenSSL, through node:crypto) accepts it for that key.
  assertEquals(
    verify(null, Buffer.from(PAYLOAD, "utf8"), publicKeyFromRaw(PUBLIC_KEY), hexToBytes(SIGNATURE)),
    true,
  );
  core.raw.forget_key();
});

const SIGNATURE = "cbfff8a6faf8ca9198fa1936bcbe2180e1a146207781039f68b345a5cb7743ac" +
  "401038eab1e4235be7628f7bece16424f467a05ba432717dc0e5935750923b03";
