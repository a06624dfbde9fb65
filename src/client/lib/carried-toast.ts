import { toast } from '@/components/ui/use-toast';

/** A toast that must survive a full-page load (e.g. 'Login successful' before the redirect that follows it). */
const KEY = 'carriedToast';

interface CarriedToast {
  title: string;
  description?: string;
}

export function carryToast(t: CarriedToast): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(t));
  } catch {
    toast(t);
  }
}

/** Shows, once, the toast carried over from the previous page. */
export function showCarriedToast(): void {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const t = JSON.parse(raw) as CarriedToast;
    if (typeof t.title === 'string') toast({ title: t.title, description: t.description });
  } catch {
    // A stale or hand-edited value: nothing to show.
  }
}
