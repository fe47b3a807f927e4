/**
 * Draws the app's icons (public/icons/*.png and app/icon.svg) from one shape: a rounded square
 * with a "T" over a tab strip. Pixels are computed here and packed as PNG with node:zlib, so
 * no image tool is needed. Run again after changing the shape: `node scripts/make-icons.mjs`.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const BG = [30, 31, 34];
const ACCENT = [76, 141, 255];
const LIGHT = [215, 218, 224];

/** Colour at (x, y) in a unit square; `bleed` fills the corners (maskable icons). */
function colour(x, y, bleed) {
  const r = 0.2;
  const inside = (() => {
    if (bleed) return true;
    const cx = Math.min(Math.max(x, r), 1 - r);
    const cy = Math.min(Math.max(y, r), 1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  })();
  if (!inside) return null;
  // Maskable icons keep their drawing in the middle 80% (the safe zone).
  const s = bleed ? 0.8 : 1;
  const u = (x - 0.5) / s + 0.5;
  const v = (y - 0.5) / s + 0.5;
  // A strip of tabs along the top, the first one lit.
  if (v > 0.18 && v < 0.3) {
    if (u > 0.16 && u < 0.42) return ACCENT;
    if (u > 0.46 && u < 0.66) return [60, 62, 68];
  }
  // The T.
  if (v > 0.38 && v < 0.5 && u > 0.24 && u < 0.76) return LIGHT;
  if (v >= 0.5 && v < 0.84 && u > 0.43 && u < 0.57) return LIGHT;
  return BG;
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, bleed) {
  const ss = 4; // supersampling for smooth corners
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      let rs = 0, gs = 0, bs = 0, as = 0;
      for (let j = 0; j < ss; j++)
        for (let i = 0; i < ss; i++) {
          const c = colour((x + (i + 0.5) / ss) / size, (y + (j + 0.5) / ss) / size, bleed);
          if (!c) continue;
          rs += c[0]; gs += c[1]; bs += c[2]; as += 255;
        }
      const n = ss * ss;
      const a = as / n;
      const o = 1 + x * 4;
      row[o] = a ? Math.round(rs / (as / 255)) : 0;
      row[o + 1] = a ? Math.round(gs / (as / 255)) : 0;
      row[o + 2] = a ? Math.round(bs / (as / 255)) : 0;
      row[o + 3] = Math.round(a);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
fs.mkdirSync(path.join(root, "public/icons"), { recursive: true });
for (const size of [192, 512]) {
  fs.writeFileSync(path.join(root, `public/icons/icon-${size}.png`), png(size, false));
  fs.writeFileSync(path.join(root, `public/icons/maskable-${size}.png`), png(size, true));
}
fs.writeFileSync(path.join(root, "public/icons/apple-touch-icon.png"), png(180, true));
const hex = (c) => `rgb(${c.join(",")})`;
fs.writeFileSync(
  path.join(root, "app/icon.svg"),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="20" fill="${hex(BG)}"/><rect x="16" y="18" width="26" height="12" fill="${hex(ACCENT)}"/><rect x="46" y="18" width="20" height="12" fill="rgb(60,62,68)"/><rect x="24" y="38" width="52" height="12" fill="${hex(LIGHT)}"/><rect x="43" y="50" width="14" height="34" fill="${hex(LIGHT)}"/></svg>\n`,
);
console.log("icons written");
