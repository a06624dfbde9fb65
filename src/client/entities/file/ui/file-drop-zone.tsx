import { FolderUp, Upload } from 'lucide-react';
import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { droppedFiles, isHidden } from '../model/dropped-files';

interface FileDropZoneProps {
  accept: string;
  /** Under the button: which files, and what happens to them. */
  hint: string;
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Drop files or folders here, or choose them with "Add files" or "Add folder": a folder brings the files of its
 * subfolders too.
 */
export function FileDropZone({ accept, hint, onFiles, disabled = false }: FileDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // dragenter and dragleave fire for every child crossed, so only the count says when the pointer left.
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);

  const enter = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const leave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (!disabled) void droppedFiles(event.dataTransfer).then(onFiles);
  };
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    onFiles([...(event.target.files ?? [])].filter((file) => !isHidden(file)));
    // The same file can be chosen again after it was removed.
    event.target.value = '';
  };

  return (
    <div
      onDragEnter={enter}
      onDragOver={(event) => hasFiles(event) && event.preventDefault()}
      onDragLeave={leave}
      onDrop={drop}
      className={cn(
        'flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors',
        dragging ? 'border-primary bg-accent' : 'border-border',
      )}
    >
      <Upload className="size-6 text-muted-foreground" aria-hidden="true" />
      <p className="text-sm text-muted-foreground">Drop files or folders here, or</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button type="button" variant="outline" disabled={disabled} onClick={() => input.current?.click()}>
          Add files
        </Button>
        <Button type="button" variant="outline" disabled={disabled} onClick={() => folderInput.current?.click()}>
          <FolderUp aria-hidden="true" />
          Add folder
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">{hint}</p>
      <input ref={input} type="file" multiple accept={accept} hidden onChange={chosen} />
      <input
        ref={(element) => {
          folderInput.current = element;
          // React has no prop for it; every supported browser picks a folder (with its subfolders) this way.
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        onChange={chosen}
      />
    </div>
  );
}
