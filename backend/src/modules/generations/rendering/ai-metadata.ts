/**
 * How a stored result says what it is, in its own metadata (the EU AI Act's machine-readable
 * marking, and what image hosts read), and which generation it is (so a reported copy can be
 * traced):
 * - an AI result: EXIF ImageDescription "AI-generated", the IPTC digital source type
 *   "trainedAlgorithmicMedia" in XMP;
 * - a preview (AI_PROVIDER=preview, no AI): "Preview, not AI-generated", digital source type
 *   "composite";
 * - both: the generation id in XMP (`xmpMM:DocumentID` and `dc:identifier`, `fitting-room:generation:<id>`).
 * Videos carry the same words and id in MP4 tags (ffmpeg -metadata).
 */
export const AI_GENERATED_LABEL = 'AI-generated';
export const PREVIEW_LABEL_TEXT = 'Preview, not AI-generated';
export const IPTC_TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
export const IPTC_COMPOSITE = 'http://cv.iptc.org/newscodes/digitalsourcetype/composite';

/** What made a result: an AI vendor, or the local preview renderer. */
export type ResultOrigin = 'ai' | 'preview';

export function originLabel(origin: ResultOrigin): string {
  return origin === 'ai' ? AI_GENERATED_LABEL : PREVIEW_LABEL_TEXT;
}

/** The identifier a result carries: `fitting-room:generation:<id>`. */
export function generationIdentifier(generationId: string): string {
  return `fitting-room:generation:${generationId}`;
}

/** The generation id in a result's XMP, if it carries one. */
export function generationIdFromXmp(xmp: string): string | null {
  return /fitting-room:generation:([0-9a-f-]{36})/i.exec(xmp)?.[1] ?? null;
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function resultExif(appName: string, origin: ResultOrigin): { IFD0: Record<string, string> } {
  return { IFD0: { ImageDescription: originLabel(origin), Software: appName } };
}

export function resultXmp(appName: string, origin: ResultOrigin, generationId?: string): string {
  const id = generationId ? generationIdentifier(generationId) : null;
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">` +
    `<Iptc4xmpExt:DigitalSourceType>${origin === 'ai' ? IPTC_TRAINED_ALGORITHMIC_MEDIA : IPTC_COMPOSITE}</Iptc4xmpExt:DigitalSourceType>` +
    `<xmp:CreatorTool>${xmlEscape(appName)}</xmp:CreatorTool>` +
    (id ? `<xmpMM:DocumentID>${id}</xmpMM:DocumentID><dc:identifier>${id}</dc:identifier>` : '') +
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${originLabel(origin)}</rdf:li></rdf:Alt></dc:description>` +
    `</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}
