import { useParams } from 'react-router';
import { EditBot } from '@/features/create-bot/components/create-bot-page';

/** Route /bots/:id/configure: the editor, as /create-bot?edit={id} shows it. */
export function ConfigureTab() {
  const id = useParams().id ?? '';
  return <EditBot key={id} idText={id} />;
}
