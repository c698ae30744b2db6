// SHA-512 (FIPS 180-4), streaming, one static context. Ed25519 needs it for
// key expansion and for the two hashes of every signature. No branch depends
// on the data, only on lengths, which are public.

const K: usize = memory.data<u64>([
  0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
  0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
  0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
  0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
  0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
  0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
  0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
  0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
  0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
  0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
  0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
  0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
  0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
  0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
  0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
  0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
  0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
  0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
  0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
  0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
]);

const IV: usize = memory.data<u64>([
  0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
  0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
]);

const H: usize = memory.data(64, 8);
const BUF: usize = memory.data(128, 8);
const W: usize = memory.data(640, 8);
let bufLen: u32 = 0;
let total: u64 = 0;

@inline function rotr64(x: u64, n: u64): u64 {
  return rotr<u64>(x, n);
}

function compress(block: usize): void {
  for (let i: usize = 0; i < 16; i++) store<u64>(W + (i << 3), bswap<u64>(load<u64>(block + (i << 3))));
  for (let i: usize = 16; i < 80; i++) {
    const w15 = load<u64>(W + ((i - 15) << 3));
    const w2 = load<u64>(W + ((i - 2) << 3));
    const s0 = rotr64(w15, 1) ^ rotr64(w15, 8) ^ (w15 >> 7);
    const s1 = rotr64(w2, 19) ^ rotr64(w2, 61) ^ (w2 >> 6);
    store<u64>(W + (i << 3), load<u64>(W + ((i - 16) << 3)) + s0 + load<u64>(W + ((i - 7) << 3)) + s1);
  }
  let a = load<u64>(H, 0);
  let b = load<u64>(H, 8);
  let c = load<u64>(H, 16);
  let d = load<u64>(H, 24);
  let e = load<u64>(H, 32);
  let f = load<u64>(H, 40);
  let g = load<u64>(H, 48);
  let h = load<u64>(H, 56);
  for (let i: usize = 0; i < 80; i++) {
    const S1 = rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41);
    const ch = (e & f) ^ (~e & g);
    const t1 = h + S1 + ch + load<u64>(K + (i << 3)) + load<u64>(W + (i << 3));
    const S0 = rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = S0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  store<u64>(H, load<u64>(H, 0) + a, 0);
  store<u64>(H, load<u64>(H, 8) + b, 8);
  store<u64>(H, load<u64>(H, 16) + c, 16);
  store<u64>(H, load<u64>(H, 24) + d, 24);
  store<u64>(H, load<u64>(H, 32) + e, 32);
  store<u64>(H, load<u64>(H, 40) + f, 40);
  store<u64>(H, load<u64>(H, 48) + g, 48);
  store<u64>(H, load<u64>(H, 56) + h, 56);
}

export function sha512Init(): void {
  memory.copy(H, IV, 64);
  memory.fill(BUF, 0, 128);
  bufLen = 0;
  total = 0;
}

export function sha512Update(p: usize, len: usize): void {
  total += <u64>len;
  while (len > 0) {
    if (bufLen == 0 && len >= 128) {
      compress(p);
      p += 128;
      len -= 128;
      continue;
    }
    let take: usize = 128 - <usize>bufLen;
    if (take > len) take = len;
    memory.copy(BUF + bufLen, p, take);
    bufLen += <u32>take;
    p += take;
    len -= take;
    if (bufLen == 128) {
      compress(BUF);
      bufLen = 0;
    }
  }
}

/** Writes the 64-byte digest to out and wipes the context (it may have held secrets). */
export function sha512Final(out: usize): void {
  const bits = total << 3;
  store<u8>(BUF + bufLen, 0x80);
  memory.fill(BUF + bufLen + 1, 0, 127 - bufLen);
  if (bufLen >= 112) {
    compress(BUF);
    memory.fill(BUF, 0, 128);
  }
  // Message length as a 128-bit big-endian integer; lengths here fit in 64 bits.
  store<u64>(BUF + 120, bswap<u64>(bits));
  compress(BUF);
  for (let i: usize = 0; i < 8; i++) store<u64>(out + (i << 3), bswap<u64>(load<u64>(H + (i << 3))));
  memory.fill(H, 0, 64);
  memory.fill(BUF, 0, 128);
  memory.fill(W, 0, 640);
  bufLen = 0;
  total = 0;
}

/** One-shot SHA-512 of [p, p + len) into out (64 bytes). */
export function sha512(p: usize, len: usize, out: usize): void {
  sha512Init();
  sha512Update(p, len);
  sha512Final(out);
}
