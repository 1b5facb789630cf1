/**
 * How a stored result says that it is AI-generated, in its own metadata (the EU AI Act's
 * machine-readable marking, and what image hosts read): EXIF ImageDescription "AI-generated",
 * and the IPTC digital source type "trainedAlgorithmicMedia" in XMP. Videos carry an MP4
 * `comment` (ffmpeg -metadata).
 */
export const AI_GENERATED_LABEL = 'AI-generated';
export const IPTC_TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function aiExif(appName: string): { IFD0: Record<string, string> } {
  return { IFD0: { ImageDescription: AI_GENERATED_LABEL, Software: appName } };
}

export function aiXmp(appName: string): string {
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">` +
    `<Iptc4xmpExt:DigitalSourceType>${IPTC_TRAINED_ALGORITHMIC_MEDIA}</Iptc4xmpExt:DigitalSourceType>` +
    `<xmp:CreatorTool>${xmlEscape(appName)}</xmp:CreatorTool>` +
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${AI_GENERATED_LABEL}</rdf:li></rdf:Alt></dc:description>` +
    `</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}
