import sharp from 'sharp';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

/**
 * What `npm run bench:takedown` and the takedown tests are made of: synthetic photos of people
 * (no real person: shapes, colours, sensor noise) and the ways a result gets re-shared (cropped,
 * turned, framed, screenshotted, recompressed). Seeded: the same seed always draws the same.
 */

/** mulberry32: small, seeded, the same in every process. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SKIN = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#ffdbac', '#d8b49c', '#a0674b', '#5c3a21'];
const HAIR = [
  '#090806',
  '#2c222b',
  '#71635a',
  '#b7a69e',
  '#d6c4c2',
  '#cabfb1',
  '#dcd0ba',
  '#e6cea8',
  '#a56b46',
  '#b55239',
  '#8d4a43',
  '#533d32',
];

const hsl = (r: () => number) => `hsl(${Math.floor(r() * 360)},${Math.floor(20 + r() * 70)}%,${Math.floor(15 + r() * 70)}%)`;
const n = (v: number) => v.toFixed(0);

/**
 * A photo of a person (800x1000 JPEG): a backdrop with a few objects, a figure (skin, hair, top,
 * trousers, arms, a face) placed and scaled at random, sensor noise. `family`: look-alike photos
 * taken at the same place with the same framing (the backdrop and the figure's place come from the
 * family), a different person and outfit in each: the hardest case for telling results apart.
 */
export async function personPhoto(seed: number, family?: number): Promise<Buffer> {
  const place = seeded((family === undefined ? seed : 1e6 + family) * 2654435761);
  const who = family === undefined ? place : seeded((seed + 7) * 40503);
  let r = place;
  const W = 800;
  const H = 1000;
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="${r().toFixed(2)}" y2="1"><stop offset="0" stop-color="${hsl(r)}"/><stop offset="1" stop-color="${hsl(r)}"/></linearGradient>` +
      `<pattern id="p" width="${10 + Math.floor(r() * 30)}" height="${10 + Math.floor(r() * 30)}" patternUnits="userSpaceOnUse" patternTransform="rotate(${Math.floor(r() * 90)})"><rect width="100" height="100" fill="${hsl(r)}"/><rect width="${4 + Math.floor(r() * 8)}" height="100" fill="${hsl(r)}"/></pattern></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>`,
  );
  const objects = 2 + Math.floor(r() * 6);
  for (let i = 0; i < objects; i++) {
    const [x, y, w, h] = [r() * W, r() * H, 40 + r() * 300, 40 + r() * 300];
    parts.push(
      r() < 0.5
        ? `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${hsl(r)}" opacity="${(0.5 + r() * 0.5).toFixed(2)}"/>`
        : `<circle cx="${n(x)}" cy="${n(y)}" r="${n(w / 2)}" fill="${hsl(r)}" opacity="${(0.5 + r() * 0.5).toFixed(2)}"/>`,
    );
  }
  const cx = 250 + r() * 300;
  const sc = 0.7 + r() * 0.6;
  r = who;
  const skin = SKIN[Math.floor(r() * SKIN.length)];
  const hair = HAIR[Math.floor(r() * HAIR.length)];
  const top = r() < 0.4 ? 'url(#p)' : hsl(r);
  const bottom = hsl(r);
  const headY = 220 + r() * 120;
  const headR = 70 * sc;
  const bodyW = 200 * sc;
  const bodyH = 330 * sc;
  const shoulders = headY + headR + 20 * sc;
  parts.push(`<g transform="rotate(${((r() - 0.5) * 16).toFixed(1)} ${n(cx)} ${n(headY)})">`);
  if (r() < 0.5)
    parts.push(
      `<rect x="${n(cx - headR * 1.15)}" y="${n(headY - headR)}" width="${n(headR * 2.3)}" height="${n(headR * 3.2)}" rx="${n(headR)}" fill="${hair}"/>`,
    );
  parts.push(
    `<rect x="${n(cx - bodyW / 2 - 40 * sc)}" y="${n(shoulders)}" width="${n(40 * sc)}" height="${n(bodyH * 0.9)}" rx="${n(18 * sc)}" fill="${skin}" transform="rotate(${n(10 + r() * 30)} ${n(cx - bodyW / 2)} ${n(shoulders)})"/>`,
    `<rect x="${n(cx + bodyW / 2)}" y="${n(shoulders)}" width="${n(40 * sc)}" height="${n(bodyH * 0.9)}" rx="${n(18 * sc)}" fill="${skin}" transform="rotate(${n(-10 - r() * 30)} ${n(cx + bodyW / 2)} ${n(shoulders)})"/>`,
    `<rect x="${n(cx - bodyW / 2)}" y="${n(headY + headR + 10 * sc)}" width="${n(bodyW)}" height="${n(bodyH)}" rx="${n(30 * sc)}" fill="${top}"/>`,
    `<rect x="${n(cx - bodyW / 2 + 10)}" y="${n(headY + headR + bodyH)}" width="${n(bodyW - 20)}" height="${n(bodyH * 0.9)}" rx="${n(20 * sc)}" fill="${bottom}"/>`,
    `<rect x="${n(cx - 18 * sc)}" y="${n(headY + headR * 0.7)}" width="${n(36 * sc)}" height="${n(40 * sc)}" fill="${skin}"/>`,
    `<ellipse cx="${n(cx)}" cy="${n(headY)}" rx="${n(headR * 0.85)}" ry="${n(headR)}" fill="${skin}"/>`,
    `<ellipse cx="${n(cx)}" cy="${n(headY - headR * 0.55)}" rx="${n(headR * 0.95)}" ry="${n(headR * 0.55)}" fill="${hair}"/>`,
    `<circle cx="${n(cx - headR * 0.3)}" cy="${n(headY)}" r="${(6 * sc).toFixed(1)}" fill="#222"/><circle cx="${n(cx + headR * 0.3)}" cy="${n(headY)}" r="${(6 * sc).toFixed(1)}" fill="#222"/>`,
    `<path d="M ${n(cx - headR * 0.3)} ${n(headY + headR * 0.45)} q ${n(headR * 0.3)} ${n(headR * 0.2)} ${n(headR * 0.6)} 0" stroke="#7a3b3b" stroke-width="${(5 * sc).toFixed(1)}" fill="none"/>`,
    `</g>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sigma = 2 + r() * 6;
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i] + (r() + r() + r() - 1.5) * sigma * 1.4));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** Cuts away `share` of the width and of the height (keeping 1 - share), at a random place. */
async function crop(image: Buffer, share: number, r: () => number): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata();
  const w = Math.round(width! * (1 - share));
  const h = Math.round(height! * (1 - share));
  return sharp(image)
    .extract({ left: Math.floor(r() * (width! - w + 1)), top: Math.floor(r() * (height! - h + 1)), width: w, height: h })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Turned by `degrees` either way (white corners), as a phone's photo of a print or a tilted repost. */
async function rotate(image: Buffer, degrees: number, r: () => number): Promise<Buffer> {
  return sharp(image)
    .rotate((r() < 0.5 ? -1 : 1) * degrees, { background: '#ffffff' })
    .resize(900)
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Letterboxed into a square or 16:9 frame, with black, white or blurred bars (a video post, a story). */
async function border(image: Buffer, r: () => number): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata();
  const W = r() < 0.5 ? 1920 : 1080;
  const H = 1080;
  const scale = Math.min(W / width!, H / height!) * 0.98;
  const [w, h] = [Math.round(width! * scale), Math.round(height! * scale)];
  const inner = await sharp(image).resize(w, h).toBuffer();
  const bars = r();
  const back =
    bars < 0.5
      ? await sharp({ create: { width: W, height: H, channels: 3, background: bars < 0.25 ? '#000000' : '#ffffff' } })
          .png()
          .toBuffer()
      : await sharp(image).resize(W, H, { fit: 'cover' }).blur(30).toBuffer();
  return sharp(back)
    .composite([{ input: inner, left: Math.round((W - w) / 2), top: Math.round((H - h) / 2) }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A phone's screenshot of a social post: status bar, the sharer's name, the picture at full width, actions, caption; saved at 1080 or 720 wide. */
async function screenshot(image: Buffer, r: () => number): Promise<Buffer> {
  const W = 1080;
  const H = 2340;
  const { width, height } = await sharp(image).metadata();
  const h = Math.round((height! * W) / width!);
  const top = 300 + Math.floor(r() * 120);
  const inner = await sharp(image).resize(W, h).toBuffer();
  const dark = r() < 0.5;
  const [fg, bg] = dark ? ['#ffffff', '#000000'] : ['#111111', '#ffffff'];
  const ui =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="${bg}"/>` +
    `<text x="40" y="70" font-size="42" font-family="sans-serif" fill="${fg}">9:41</text><rect x="900" y="40" width="120" height="40" rx="8" fill="${fg}"/>` +
    `<circle cx="90" cy="${top - 90}" r="50" fill="#cc99aa"/><text x="170" y="${top - 75}" font-size="44" font-family="sans-serif" fill="${fg}">someone.shared.this</text>` +
    `<circle cx="90" cy="${top + h + 90}" r="36" fill="none" stroke="${fg}" stroke-width="8"/><circle cx="220" cy="${top + h + 90}" r="36" fill="none" stroke="${fg}" stroke-width="8"/>` +
    `<text x="40" y="${top + h + 220}" font-size="40" font-family="sans-serif" fill="${fg}">look at this #beach #summer</text>` +
    `<text x="40" y="${top + h + 290}" font-size="40" font-family="sans-serif" fill="${fg}">View all 112 comments</text></svg>`;
  const shot = await sharp(Buffer.from(ui))
    .composite([{ input: inner, left: 0, top }])
    .png()
    .toBuffer();
  return sharp(shot)
    .resize(r() < 0.5 ? W : 720)
    .png()
    .toBuffer();
}

/** Shrunk to 720 wide and saved twice at one JPEG quality between 50 and 95 (a picture passed along twice). */
async function recompress(image: Buffer, r: () => number): Promise<Buffer> {
  const quality = 50 + Math.floor(r() * 46);
  const once = await sharp(image).resize(720).jpeg({ quality }).toBuffer();
  return sharp(once).jpeg({ quality }).toBuffer();
}

/** The ways a result is re-shared, each drawn from `r` (where to crop, which way to turn, which bars). */
export const COPY_TRANSFORMS = {
  crop10: (image: Buffer, r: () => number) => crop(image, 0.1, r),
  crop20: (image: Buffer, r: () => number) => crop(image, 0.2, r),
  rotate3: (image: Buffer, r: () => number) => rotate(image, 3, r),
  rotate5: (image: Buffer, r: () => number) => rotate(image, 5, r),
  border: (image: Buffer, r: () => number) => border(image, r),
  screenshot: (image: Buffer, r: () => number) => screenshot(image, r),
  recompress: (image: Buffer, r: () => number) => recompress(image, r),
} as const;

export type CopyTransform = keyof typeof COPY_TRANSFORMS;
