import { CircleCheck, Download, Sparkles, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import { useExportAccount } from '../api/export-account';
import { DeleteAccountDialog } from './delete-account-dialog';
import { PlanDetailsDialog } from './plan-details-dialog';
import { SettingsSection } from './settings-section';

export function AccountTab() {
  const { user } = useAuth();
  const exportAccount = useExportAccount();
  const [dialog, setDialog] = useState<'plan' | 'delete' | null>(null);
  const dialogProps = (name: 'plan' | 'delete') => ({
    open: dialog === name,
    onOpenChange: (open: boolean) => setDialog(open ? name : null),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Information</CardTitle>
        <CardDescription>Your account, plan and data.</CardDescription>
      </CardHeader>
      <CardContent>
        <SettingsSection title="Account Status">
          <div className="flex flex-wrap items-center gap-3">
            <Badge variant="success">
              <CircleCheck className="size-3.5" aria-hidden="true" />
              Active
            </Badge>
            <p className="text-sm text-muted-foreground">Your account is active and in good standing</p>
          </div>
        </SettingsSection>
        <SettingsSection title="Plan Details">
          <div className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-start gap-3">
              <Sparkles className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <div>
                <p className="font-medium">Beta Free Account</p>
                <p className="text-sm text-muted-foreground">All features included during beta</p>
              </div>
            </div>
            <Button variant="outline" className="w-full sm:w-auto" onClick={() => setDialog('plan')}>
              View Details
            </Button>
          </div>
        </SettingsSection>
        <SettingsSection title="Data & Privacy">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">Download your data</p>
            <Button
              variant="outline"
              className="w-full sm:w-auto"
              disabled={!user || exportAccount.isPending}
              onClick={() => user && exportAccount.mutate(user.username)}
            >
              <Download aria-hidden="true" />
              {exportAccount.isPending ? 'Preparing...' : 'Request Export'}
            </Button>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">Permanently delete your account and everything in it</p>
            <Button variant="destructive" className="w-full sm:w-auto" onClick={() => setDialog('delete')}>
              <Trash2 aria-hidden="true" />
              Delete Account
            </Button>
          </div>
        </SettingsSection>
      </CardContent>
      <PlanDetailsDialog {...dialogProps('plan')} />
      <DeleteAccountDialog {...dialogProps('delete')} />
    </Card>
  );
}
