/**
 * The files of a drop, folders walked recursively. Browsers hand folders over as entries only, so
 * they are read through the File System entry API; each file keeps its path within the drop.
 */
export async function droppedFiles(transfer: DataTransfer): Promise<File[]> {
  const entries = [...transfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry())
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0) return [...transfer.files];
  const files = await Promise.all(entries.map(filesOfEntry));
  return files.flat();
}

async function filesOfEntry(entry: FileSystemEntry): Promise<File[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    return [file];
  }
  if (!entry.isDirectory || entry.name.startsWith('.')) return [];
  const children = await readAllEntries((entry as FileSystemDirectoryEntry).createReader());
  return (await Promise.all(children.map(filesOfEntry))).flat();
}

/** A directory reader answers in batches until it returns an empty one. */
async function readAllEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}
