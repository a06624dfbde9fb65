import { Check } from 'lucide-react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

const INCLUDED = [
  'Unlimited botties, each with its own prompt, tone and memory',
  'AI-assisted training: generated system prompts and example questions',
  'Streaming chat with every bot, with full conversation history',
  'Data export and account deletion at any time',
];

export function PlanDetailsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Beta Free Account</DialogTitle>
          <DialogDescription>
            All features included during beta. There is nothing to pay and no card on file.
          </DialogDescription>
        </DialogHeader>
        <ul className="grid gap-2 text-sm">
          {INCLUDED.map((item) => (
            <li key={item} className="flex gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
