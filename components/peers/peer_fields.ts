/** What the two peer forms (new peer, a peer's settings) have in common. */
import { z } from "zod";
import { formText } from "@/server/http/form.ts";

/** A text field of a peer form. */
export const PeerText = formText(1000);

/** A checkbox: "true" when checked, absent otherwise. */
export const Checked = z.literal("true").optional();

/** The settings both forms post, in the forms' order. */
export const PEER_FIELDS = {
  name: PeerText,
  profile: PeerText,
  address: PeerText,
  dns: PeerText,
  keepalive: PeerText,
  mtu: PeerText,
  allowed_ips: PeerText,
};

/** The routing choices, as [profile, label]. */
export const ROUTING_OPTIONS: [string, string][] = [
  ["full-tunnel", "Full tunnel: all traffic"],
  ["split-tunnel", "Split tunnel: the interface's block only"],
];
