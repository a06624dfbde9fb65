import { formatCount } from '@/lib/format-count';
import { cn } from '@/lib/cn';

/** A table column; a numeric one is right-aligned, head and cells alike. */
export interface Column {
  label: string;
  numeric?: boolean;
  className?: string;
}

/** A table's head: one `th scope="col"` a column. */
export function ColumnHeads({
  columns,
  className,
  cellClassName,
}: {
  columns: Column[];
  className?: string;
  cellClassName?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => (
          <th
            key={column.label}
            scope="col"
            className={cn(cellClassName, column.numeric && 'text-right', column.className) || undefined}
          >
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A count under a numeric column. */
export function CountCell({ value, className }: { value: number; className?: string }) {
  return <td className={cn('text-right', className)}>{formatCount(value)}</td>;
}
