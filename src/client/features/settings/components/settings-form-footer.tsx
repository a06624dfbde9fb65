import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { CardFooter } from '@/components/ui/card';
import { PendingButton } from '@/components/ui/pending-button';

/** Cancel (back to the dashboard, spec §2) and the form's submit button, as both settings forms lay them out. */
export function SettingsFormFooter({
  pending,
  label,
  pendingLabel,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <CardFooter className="flex-col-reverse gap-3 border-t pt-5 sm:flex-row sm:justify-end sm:pt-6">
      <Button asChild variant="outline" className="w-full sm:w-auto">
        <Link to="/dashboard">Cancel</Link>
      </Button>
      <PendingButton type="submit" className="w-full sm:w-auto" pending={pending} pendingLabel={pendingLabel}>
        {label}
      </PendingButton>
    </CardFooter>
  );
}
