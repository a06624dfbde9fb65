import { PNG } from 'pngjs';

/** A 5×7 capital font: enough for a test to draw a sentence into a picture, as a scanner would see it. */
const GLYPHS: Record<string, string> = {
  A: '01110 10001 10001 11111 10001 10001 10001',
  B: '11110 10001 10001 11110 10001 10001 11110',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11110 10001 10001 10001 10001 10001 11110',
  E: '11111 10000 10000 11110 10000 10000 11111',
  F: '11111 10000 10000 11110 10000 10000 10000',
  G: '01110 10001 10000 10111 10001 10001 01111',
  H: '10001 10001 10001 11111 10001 10001 10001',
  I: '01110 00100 00100 00100 00100 00100 01110',
  J: '00111 00010 00010 00010 00010 10010 01100',
  K: '10001 10010 10100 11000 10100 10010 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  M: '10001 11011 10101 10101 10001 10001 10001',
  N: '10001 10001 11001 10101 10011 10001 10001',
  O: '01110 10001 10001 10001 10001 10001 01110',
  P: '11110 10001 10001 11110 10000 10000 10000',
  Q: '01110 10001 10001 10001 10101 10010 01101',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  V: '10001 10001 10001 10001 10001 01010 00100',
  W: '10001 10001 10001 10101 10101 10101 01010',
  X: '10001 10001 01010 00100 01010 10001 10001',
  Y: '10001 10001 01010 00100 00100 00100 00100',
  Z: '11111 00001 00010 00100 01000 10000 11111',
  '.': '00000 00000 00000 00000 00000 01100 01100',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
};

/** A grey-on-white PNG of `lines` (capitals, spaces and full stops), each pixel of the font `scale` pixels wide. */
export function pngOfText(lines: string[], scale = 4): Uint8Array {
  const advance = 6 * scale;
  const lineHeight = 12 * scale;
  const margin = 8 * scale;
  const width = margin * 2 + Math.max(...lines.map((l) => l.length)) * advance;
  const height = margin * 2 + lines.length * lineHeight;
  const image = new PNG({ width, height });
  image.data.fill(255);
  lines.forEach((line, row) =>
    [...line.toUpperCase()].forEach((char, col) => {
      const glyph = (GLYPHS[char] ?? GLYPHS[' ']!).split(' ');
      glyph.forEach((bits, gy) =>
        [...bits].forEach((bit, gx) => {
          if (bit !== '1') return;
          for (let dy = 0; dy < scale; dy++)
            for (let dx = 0; dx < scale; dx++) {
              const x = margin + col * advance + gx * scale + dx;
              const y = margin + row * lineHeight + gy * scale + dy;
              image.data.fill(20, (y * width + x) * 4, (y * width + x) * 4 + 3);
            }
        }),
      );
    }),
  );
  blur(image, Math.ceil(scale / 2));
  return PNG.sync.write(image);
}

/** Softens the font's square pixels into the grey edges a scanner gives letters, which OCR models expect. */
function blur(image: PNG, radius: number) {
  const { width, height, data } = image;
  const grey = Float32Array.from({ length: width * height }, (_, i) => data[i * 4]!);
  const pass = (src: Float32Array, dx: number, dy: number) =>
    src.map((_, i) => {
      const x = i % width;
      const y = Math.floor(i / width);
      let sum = 0;
      for (let k = -radius; k <= radius; k++) {
        const xx = Math.min(width - 1, Math.max(0, x + k * dx));
        const yy = Math.min(height - 1, Math.max(0, y + k * dy));
        sum += src[yy * width + xx]!;
      }
      return sum / (2 * radius + 1);
    });
  const out = pass(pass(grey, 1, 0), 0, 1);
  out.forEach((v, i) => data.fill(Math.round(v), i * 4, i * 4 + 3));
}
