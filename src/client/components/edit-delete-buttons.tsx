import { Pencil, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface EditDeleteButtonsProps {
  /** The item's name, in the buttons' accessible names so a screen reader tells one card's from the next. */
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}

/** A card's Edit and Delete, beside any buttons of its own in the same row. */
export function EditDeleteButtons({ name, onEdit, onDelete }: EditDeleteButtonsProps) {
  return (
    <>
      <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${name}`}>
        <Pencil aria-hidden="true" />
        Edit
      </Button>
      <Button variant="outline" size="sm" onClick={onDelete} aria-label={`Delete ${name}`}>
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
    </>
  );
}
