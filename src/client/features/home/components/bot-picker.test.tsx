import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import { BotPicker } from './chat-entry';

const bot = (id: number, name: string) => ({ id, name, active: true }) as Bot;
const [chef, scout, tutor] = [bot(1, 'Chef'), bot(2, 'Scout'), bot(3, 'Tutor')];

describe('the bot picker of Home', () => {
  it('keeps the chosen bot when the pins are reordered', async () => {
    const user = userEvent.setup({ delay: null });
    const view = render(<BotPicker top={[chef, scout]} others={[tutor]} onStart={() => {}} />);
    const picker = screen.getByLabelText('Botty');
    expect(picker).toHaveProperty('value', '1');
    view.rerender(<BotPicker top={[scout, chef]} others={[tutor]} onStart={() => {}} />);
    expect(screen.getByLabelText('Botty')).toHaveProperty('value', '1');
    await user.selectOptions(screen.getByLabelText('Botty'), '3');
    view.rerender(<BotPicker top={[chef, scout]} others={[tutor]} onStart={() => {}} />);
    expect(screen.getByLabelText('Botty')).toHaveProperty('value', '3');
  });

  it('falls back to the first bot when the chosen one leaves the list', () => {
    const view = render(<BotPicker top={[chef]} others={[scout]} onStart={() => {}} />);
    view.rerender(<BotPicker top={[]} others={[scout]} onStart={() => {}} />);
    expect(screen.getByLabelText('Botty')).toHaveProperty('value', '2');
  });
});
