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

interface ZipEntryInfo {
  name: string;
  /** Compressed size. */
  size: number;
  /** Inflated size, as the archive declares it. */
  originalSize: number;
}

/**
 * The archive's central directory (names and declared sizes), read without inflating anything; null when it is
 * not a readable ZIP archive. Sizes a crafted archive misdeclares bound what inflating it allocates.
 */
export function listZipEntries(bytes: Uint8Array): ZipEntryInfo[] | null {
  const entries: ZipEntryInfo[] = [];
  try {
    unzipSync(bytes, {
      filter({ name, size, originalSize }) {
        entries.push({ name, size, originalSize });
        return false;
      },
    });
  } catch {
    return null;
  }
  return entries;
}

/** Whether the entries would inflate past the bounds. */
export function exceedsBounds(entries: ZipEntryInfo[], bounds: ZipBounds): boolean {
  const inflated = entries.reduce((sum, e) => sum + e.originalSize, 0);
  const compressed = entries.reduce((sum, e) => sum + e.size, 0);
  return inflated > bounds.maxInflatedBytes || inflated > bounds.maxRatio * Math.max(compressed, 1);
}

/**
 * Refuses archives that are unreadable or would inflate past the bounds, before anything is inflated. Sizes a
 * crafted archive misdeclares are caught later by the extraction worker's memory limit.
 */
export function checkZipBounds(bytes: Uint8Array, bounds: ZipBounds, label: string) {
  const entries = listZipEntries(bytes);
  if (!entries) throw new ExtractionError(`This ${label} is damaged: it is not a readable ZIP archive.`);
  if (exceedsBounds(entries, bounds)) {
    throw new ExtractionError(
      `This ${label} expands to far more data than it holds (a possible zip bomb), so it was not read.`,
    );
  }
}
