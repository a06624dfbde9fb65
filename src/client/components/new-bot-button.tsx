import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Button, type ButtonProps } from '@/components/ui/button';

/** The 'New Botty' link into the wizard, the same wherever a screen offers it. */
export function NewBotButton({ className, size }: Pick<ButtonProps, 'className' | 'size'>) {
  return (
    <Button asChild size={size} className={className}>
      <Link to="/create-bot">
        <Plus aria-hidden="true" />
        New Botty
      </Link>
    </Button>
  );
}
