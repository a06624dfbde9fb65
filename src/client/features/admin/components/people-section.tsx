import { InvitationsCard } from './invitations-card';
import { RegistrationCard } from './registration-card';
import { UsersCard } from './users-card';

/** Admin → People: accounts, roles and limits, and who may sign up. */
export function PeopleSection() {
  return (
    <div className="grid gap-6">
      <UsersCard />
      <RegistrationCard />
      <InvitationsCard />
    </div>
  );
}
