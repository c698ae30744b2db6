/**
 * QR codes of client configurations: SVG from qrcode-generator, PNG from the
 * same module matrix (png.ts), so both images encode identical bytes.
 */
import qrcode from "qrcode-generator";
import { toBase64 } from "./keys.ts";
import { png } from "./png.ts";

export interface QrImages {
  svg: string;
  /** `data:image/png;base64,…` */
  data_url: string;
  png_base64: string;
}

/** QR images of `text` (UTF-8, byte mode, error correction M). */
export async function qr(text: string): Promise<QrImages> {
  const code = qrcode(0, "M");
  // The library maps each char code to one byte; feed it UTF-8 bytes as chars
  // so non-ASCII peer names survive.
  const utf8 = new TextEncoder().encode(text);
  code.addData(String.fromCharCode(...utf8), "Byte");
  code.make();
  const size = code.getModuleCount();
  const image = await png(size, (r, c) => code.isDark(r, c), 4, 4);
  const b64 = toBase64(image);
  return {
    svg: code.createSvgTag({ cellSize: 4, margin: 16, scalable: true }),
    data_url: `data:image/png;base64,${b64}`,
    png_base64: b64,
  };
}
