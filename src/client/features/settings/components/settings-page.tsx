import { ChartColumn, Code2, KeyRound, ShieldCheck, UserRound, Wrench } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AccountTab } from '@/features/settings/components/account-tab';
import { ApiKeysTab } from '@/features/settings/components/api-keys-tab';
import { ProfileTab } from '@/features/settings/components/profile-tab';
import { SecurityTab } from '@/features/settings/components/security-tab';
import { ToolsTab } from '@/features/settings/components/tools-tab';
import { UsageTab } from '@/features/settings/components/usage-tab';
import { useAuth } from '@/lib/auth';

const TABS = ['profile', 'security', 'account', 'usage', 'api-keys', 'tools'] as const;

/** The open tab is in the address (`?tab=api-keys`), so a reload, a link or Back opens it again. */
export function SettingsPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = TABS.find((t) => t === asked) ?? 'profile';
  if (!user) return null;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <PageHeader title="Account Settings" description="Manage your profile, password and account." />
      <Tabs
        value={tab}
        onValueChange={(next) => setParams(next === 'profile' ? {} : { tab: next }, { replace: true })}
        className="mt-6"
      >
        <TabsList className="grid h-auto w-full grid-cols-2 gap-1 *:min-h-11 sm:inline-flex sm:h-10 sm:w-auto sm:*:min-h-0">
          <TabsTrigger value="profile">
            <UserRound className="size-4" aria-hidden="true" />
            Profile
          </TabsTrigger>
          <TabsTrigger value="security">
            <KeyRound className="size-4" aria-hidden="true" />
            Security
          </TabsTrigger>
          <TabsTrigger value="account">
            <ShieldCheck className="size-4" aria-hidden="true" />
            Account
          </TabsTrigger>
          <TabsTrigger value="usage">
            <ChartColumn className="size-4" aria-hidden="true" />
            Usage
          </TabsTrigger>
          <TabsTrigger value="api-keys">
            <Code2 className="size-4" aria-hidden="true" />
            API keys
          </TabsTrigger>
          <TabsTrigger value="tools">
            <Wrench className="size-4" aria-hidden="true" />
            Tools
          </TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab key={user.id} user={user} />
        </TabsContent>
        <TabsContent value="security">
          <SecurityTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab />
        </TabsContent>
        <TabsContent value="usage">
          <UsageTab />
        </TabsContent>
        <TabsContent value="api-keys">
          <ApiKeysTab />
        </TabsContent>
        <TabsContent value="tools">
          <ToolsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
