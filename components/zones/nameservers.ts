/** "ns1.example.org, ns2.example.org" (commas or spaces) → the names, empty entries dropped. */
export function parseNameservers(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}
