/** Hands bytes to the browser as a download named `name`: for files fetched with the bearer token, which a link could not send. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** The file name a response's Content-Disposition gives: the exact UTF-8 one when sent (RFC 6266), else the plain one. */
export function attachmentName(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact);
    } catch {
      // A malformed escape: fall through to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}
