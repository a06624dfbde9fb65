import { GraduationCap, MessagesSquare, Plus, Sparkles, type LucideIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { setRedirectAfterLogin } from '@/lib/storage';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Spec §9. */
const DELAY_LOGO_ANIMATION_MS = 300;

const STEPS: { icon: LucideIcon; title: string; text: string }[] = [
  { icon: Sparkles, title: 'Define', text: 'Give your botty a name, a purpose and the skills it needs.' },
  { icon: GraduationCap, title: 'Train', text: 'Add a few example questions and Botty writes its instructions.' },
  { icon: MessagesSquare, title: 'Chat', text: 'Ask away: research, plan and write together, in its own voice.' },
];

/** What a guest sees at `/`: what Botty is, and the way in. */
export function LandingPage() {
  useDocumentTitle('Create your own AI research botties');
  const navigate = useNavigate();
  const [animateLogo, setAnimateLogo] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setAnimateLogo(true), DELAY_LOGO_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, []);

  // Only guests see this page, so New Botty always asks them to sign in first, then opens the wizard.
  const startNewBot = () => {
    setRedirectAfterLogin('/create-bot');
    toast({ title: 'Authentication required', description: 'Please log in to create a new bot' });
    void navigate('/login');
  };

  return (
    <div className="relative isolate flex flex-1 flex-col items-center overflow-hidden px-4 pt-16 pb-20 text-center sm:px-6 sm:pt-24">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 -z-10 h-[28rem] bg-[radial-gradient(ellipse_at_top,var(--color-accent),transparent_70%)]"
      />
      <LogoMark className={cn('size-20 drop-shadow-lg sm:size-24', animateLogo && 'animate-logo-float')} />
      <h1 className="mt-8 max-w-2xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
        Your own AI research botties
      </h1>
      <p className="mt-4 max-w-xl text-lg text-balance text-muted-foreground">
        Create, customise and train AI assistants that research, plan and write with you. No code needed.
      </p>
      <div className="mt-8 flex w-full max-w-xs flex-col gap-3 sm:w-auto sm:max-w-none sm:flex-row">
        <Button size="lg" onClick={startNewBot}>
          <Plus aria-hidden="true" />
          New Botty
        </Button>
        <Button size="lg" variant="outline" asChild>
          <Link to="/login">Sign in</Link>
        </Button>
      </div>

      <ol className="mt-16 grid w-full max-w-4xl gap-4 text-left sm:mt-24 sm:grid-cols-3">
        {STEPS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border bg-card p-5">
            <span
              className="flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground"
              aria-hidden="true"
            >
              <Icon className="size-5" />
            </span>
            <h2 className="mt-4 font-semibold">{title}</h2>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
