import { unzipSync } from 'fflate';
import { ExtractionError } from './extraction-error';

export interface ZipBounds {
  /** Total size of all entries once inflated. */
  maxInflatedBytes: number;
  /** Inflated size over compressed size, for the archive as a whole. */
  maxRatio: number;
}

/** Word files are ZIP archives of XML; real ones inflate a few times over, zip bombs thousands of times. */
export const DOCX_BOUNDS: ZipBounds = { maxInflatedBytes: 200 * 1024 * 1024, maxRatio: 100 };

/**
 * Reads the archive's central directory (names and declared sizes) without inflating anything, and refuses
 * archives that would inflate past the bounds. Sizes a crafted archive misdeclares are caught later by the
 * extraction worker's memory limit.
 */
export function checkZipBounds(bytes: Uint8Array, bounds: ZipBounds, label: string) {
  let inflated = 0;
  let compressed = 0;
  try {
    unzipSync(bytes, {
      filter(entry) {
        inflated += entry.originalSize;
        compressed += entry.size;
        return false;
      },
    });
  } catch {
    throw new ExtractionError(`This ${label} is damaged: it is not a readable ZIP archive.`);
  }
  if (inflated > bounds.maxInflatedBytes || inflated > bounds.maxRatio * Math.max(compressed, 1)) {
    throw new ExtractionError(
      `This ${label} expands to far more data than it holds (a possible zip bomb), so it was not read.`,
    );
  }
}
