import { type Generation, generationApi } from './generation-api';

/** The name in a Content-Disposition header: `filename*=UTF-8''...` first, then `filename="..."`. */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || null;
}

/** The download's name: the server's (header, or the signed link's `dl`), else one of our own. */
function downloadName(generation: Generation, response: Response | undefined): string {
  const fromHeader = fileNameFromDisposition(response?.headers.get('Content-Disposition'));
  if (fromHeader) return fromHeader;
  if (response?.url) {
    const finalUrl = new URL(response.url, window.location.href);
    const dl = finalUrl.searchParams.get('dl') ?? fileNameFromDisposition(finalUrl.searchParams.get('response-content-disposition'));
    if (dl) return dl;
  }
  return `generation-${generation.id}.${generation.type === 'video' ? 'mp4' : 'jpg'}`;
}

/**
 * Download (docs/product.md): GET /api/generations/:id/download answers with a redirect to a signed
 * link, named `<prefix>-<id>.jpg` or `.mp4`. The browser follows it through the typed client (the
 * first request needs the bearer token), then saves the file under the server's name.
 */
export async function downloadGeneration(generation: Generation): Promise<void> {
  const { file, response } = await generationApi.download(generation.id);
  const href = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = href;
  link.download = downloadName(generation, response);
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the memory can go.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
