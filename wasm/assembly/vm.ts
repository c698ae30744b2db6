// The attestation VM. A program is 8..16 one-byte instructions: the high
// nibble is the opcode, the low nibble its operand n. Every byte is a valid
// instruction, so the only invalid programs are those of the wrong length.
// Execution is total and deterministic: popping an empty stack yields 0, a
// push onto a full stack (32 entries) drops the bottom entry, and the run
// stops when ip leaves the program or after 256 executed instructions,
// whichever comes first. docs/attestation.md has the table.

export const VM_MIN_LEN: u32 = 8;
export const VM_MAX_LEN: u32 = 16;
export const VM_MAX_STEPS: u32 = 256;
export const VM_STACK_CAP: u32 = 32;

const STACK: usize = memory.data(<i32>(VM_STACK_CAP * 4), 8);
let sp: u32 = 0;

@inline function at(i: u32): usize {
  return STACK + (<usize>i << 2);
}

function push(v: u32): void {
  if (sp == VM_STACK_CAP) {
    memory.copy(STACK, STACK + 4, (VM_STACK_CAP - 1) * 4);
    sp--;
  }
  store<u32>(at(sp), v);
  sp++;
}

function pop(): u32 {
  if (sp == 0) return 0;
  sp--;
  return load<u32>(at(sp));
}

/**
 * Runs the program at [prog, prog + len). Writes ip (u32), depth (u32) and the
 * stack, bottom first (u32 each), to out. Returns false for an invalid length.
 */
export function vmRun(prog: usize, len: u32, out: usize): bool {
  if (len < VM_MIN_LEN || len > VM_MAX_LEN) return false;
  sp = 0;
  let ip: u32 = 0;
  let steps: u32 = 0;
  while (ip < len && steps < VM_MAX_STEPS) {
    steps++;
    const ins = <u32>load<u8>(prog + ip);
    const op = ins >> 4;
    const n = ins & 15;
    const here = ip;
    ip++;
    switch (op) {
      case 0x0: // PUSH n
        push(n);
        break;
      case 0x1: // PUSHK n
        push((n + 1) * 0x9e3779b9);
        break;
      case 0x2: { // PICK n
        if (sp == 0) push(0);
        else push(load<u32>(at(sp - 1 - (n % sp))));
        break;
      }
      case 0x3: { // ADD
        const b = pop();
        const a = pop();
        push(a + b);
        break;
      }
      case 0x4: { // SUB
        const b = pop();
        const a = pop();
        push(a - b);
        break;
      }
      case 0x5: { // MUL
        const b = pop();
        const a = pop();
        push(a * b);
        break;
      }
      case 0x6: { // XOR
        const b = pop();
        const a = pop();
        push(a ^ b);
        break;
      }
      case 0x7: { // AND
        const b = pop();
        const a = pop();
        push(a & b);
        break;
      }
      case 0x8: { // OR
        const b = pop();
        const a = pop();
        push(a | b);
        break;
      }
      case 0x9: // ROTL n
        push(rotl<u32>(pop(), n + 1));
        break;
      case 0xa: // SHR n
        push(pop() >> (n + 1));
        break;
      case 0xb: { // SWAP n
        if (sp >= 2) {
          const j = sp - 2 - (n % (sp - 1));
          const top = load<u32>(at(sp - 1));
          store<u32>(at(sp - 1), load<u32>(at(j)));
          store<u32>(at(j), top);
        }
        break;
      }
      case 0xc: // DROP
        pop();
        break;
      case 0xd: { // JNZ n: back by n + 1 from this instruction, not before 0
        if (pop() != 0) ip = here >= n + 1 ? here - (n + 1) : 0;
        break;
      }
      case 0xe: { // JZ n: skip the next n + 1 instructions
        if (pop() == 0) {
          ip = here + n + 2;
          if (ip > len) ip = len;
        }
        break;
      }
      default: { // 0xf MIX n
        const b = pop();
        const a = pop();
        let x = (a ^ rotl<u32>(b, n + 1)) * 0x9e3779b1;
        push(x ^ (x >> 15));
        break;
      }
    }
  }
  store<u32>(out, ip);
  store<u32>(out + 4, sp);
  memory.copy(out + 8, STACK, <usize>sp << 2);
  return true;
}
