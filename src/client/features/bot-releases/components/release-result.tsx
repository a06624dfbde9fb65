import { CircleCheck, CircleX, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import type { Release, ReleaseVerdict } from '@shared/contracts/releases';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

interface ReleaseResultProps {
  release: Release;
  onPublishAnyway: () => void;
}

/** The release just asked for: being checked, published, blocked (and why, question by question) or failed. */
export function ReleaseResult({ release, onPublishAnyway }: ReleaseResultProps) {
  const { version, baselineVersion, verdict } = release;
  return (
    <div role="status" className="grid gap-3 rounded-lg border p-4">
      {release.status === 'checking' && (
        <div className="grid gap-1">
          <p className="flex items-center gap-2 font-medium">
            <Spinner className="size-4" label="" />
            {baselineVersion === null
              ? `Checking version ${version}…`
              : `Checking version ${version} against version ${baselineVersion}…`}
          </p>
          <p className="text-sm text-muted-foreground">
            It goes on when you leave this page.{' '}
            <Link className="underline underline-offset-4" to={`/bots/${release.botId}/versions`}>
              Follow the evaluation
            </Link>
          </p>
        </div>
      )}
      {release.status === 'published' && (
        <p className="flex items-center gap-2 font-medium">
          <CircleCheck className="size-4 text-success" aria-hidden="true" />
          Version {version} is published
        </p>
      )}
      {release.status === 'blocked' && (
        <p className="flex items-center gap-2 font-medium text-error">
          <CircleX className="size-4" aria-hidden="true" />
          Version {version} was not published
        </p>
      )}
      {release.status === 'failed' && (
        <p className="flex items-center gap-2 font-medium text-error">
          <TriangleAlert className="size-4" aria-hidden="true" />
          Version {version} could not be checked
        </p>
      )}
      {release.message && <p className="text-sm text-muted-foreground">{release.message}</p>}
      {verdict && release.status !== 'checking' && <Verdict verdict={verdict} />}
      {release.status === 'blocked' && (
        <Button variant="outline" className="justify-self-start" onClick={onPublishAnyway}>
          Publish anyway
        </Button>
      )}
    </div>
  );
}

function Verdict({ verdict }: { verdict: ReleaseVerdict }) {
  if (!verdict.tested) return <p className="text-sm">Nothing was tested: this botty has no test set.</p>;
  return (
    <div className="grid gap-2 text-sm">
      <p className="font-medium">{verdict.summary}</p>
      {verdict.blockedBy.length > 0 && (
        <ul className="list-disc pl-5">
          {verdict.blockedBy.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {verdict.questions.length > 0 && (
        <ul aria-label="Questions that got worse" className="grid gap-2">
          {verdict.questions.map((question) => (
            <li key={question.query} className="grid gap-1 rounded-md bg-muted/50 p-3">
              <p className="font-medium break-words">{question.query}</p>
              <p>
                {question.before ?? '—'} → {question.after ?? '—'}
              </p>
              {question.reason && <p className="break-words text-muted-foreground">{question.reason}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
