/**
 * The files of a drop, folders included: a dropped folder is read through the File and Directory Entries API
 * (webkitGetAsEntry, in every supported browser), its subfolders too. Hidden files (a leading dot, such as
 * .DS_Store) are left out, as they are when a folder is chosen with the picker.
 */
export async function droppedFiles(transfer: DataTransfer): Promise<File[]> {
  const entries = [...transfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  // Without entries (an older browser, a synthetic drop), the files as given.
  if (entries.some((entry) => entry === null)) return [...transfer.files];
  const files: File[] = [];
  for (const entry of entries) await collect(entry!, files);
  return files;
}

/** A hidden file, or one in a hidden folder of a chosen folder (such as .git). */
export const isHidden = (file: File) =>
  (file.webkitRelativePath || file.name).split('/').some((part) => part.startsWith('.'));

async function collect(entry: FileSystemEntry, into: File[]): Promise<void> {
  if (entry.name.startsWith('.')) return;
  if (entry.isFile) {
    into.push(await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject)));
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const child of batch) await collect(child, into);
  }
}
