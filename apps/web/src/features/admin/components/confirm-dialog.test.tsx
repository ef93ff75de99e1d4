// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitRightAfterOpening } from '../../../lib/discrete-input.test-support';
import { ConfirmDialog } from './confirm-dialog';

// Texts are their keys: no locale files to load.
vi.mock('../../../lib/i18n', async (original) => ({
  ...await original<typeof import('../../../lib/i18n')>(), useT: () => ({ t: (key: string) => key, language: 'en' }),
}));

afterEach(cleanup);

function Page({ onConfirm }: { onConfirm: (reason: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Refund</button>
      <ConfirmDialog open={open} title="Refund?" description="Money goes back." confirmLabel="Refund now" reason="required"
        onConfirm={onConfirm} onClose={() => setOpen(false)} />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('starts each opening empty, even for a key that comes before a default-priority render', async () => {
    const onConfirm = vi.fn();
    render(<Page onConfirm={onConfirm} />);
    // First opening: a reason typed, then cancelled.
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    fireEvent.change(screen.getByLabelText('confirm.reason'), { target: { value: 'customer 1 asked' } });
    fireEvent.click(screen.getByRole('button', { name: 'actions.cancel' }));
    expect(document.querySelector('dialog')).toBeNull();

    // Second opening, confirmed at once: the reason of the first must not be sent for this one.
    await submitRightAfterOpening(screen.getByRole('button', { name: 'Refund' }));
    expect(onConfirm).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('confirm.reasonError'));
    expect((screen.getByLabelText('confirm.reason') as HTMLTextAreaElement).value).toBe('');
  });

  it('sends the reason typed and gives focus back to the opener when closed', async () => {
    const onConfirm = vi.fn();
    render(<Page onConfirm={onConfirm} />);
    const opener = screen.getByRole('button', { name: 'Refund' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.change(screen.getByLabelText('confirm.reason'), { target: { value: '  duplicate payment  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Refund now' }));
    expect(onConfirm).toHaveBeenCalledWith('duplicate payment');
    fireEvent.click(screen.getByRole('button', { name: 'actions.cancel' }));
    expect(document.activeElement).toBe(opener);
  });
});
