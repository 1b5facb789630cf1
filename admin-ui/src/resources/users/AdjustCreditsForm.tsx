import { plural } from '@fitting-room/shared';
import { Alert, Box, Button, Card, CardContent, CardHeader, MenuItem, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { SuccessBanner } from '../../components/Banners';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { AdminCreditsAdjustDto, AdminUserDetailsDto as AdminUserDetails } from '@fitting-room/api-client';

type CreditMode = AdminCreditsAdjustDto['mode'];

/** docs/product.md (admin credit adjustment), with the API's own wording for server refusals. */
export const FILL_ALL_FIELDS = 'Please fill in all fields';
export const INVALID_AMOUNT = 'Please enter a valid amount';

/** The form's own check before the request; null when the input may be sent. */
export function validateAdjustment(mode: string, amount: string, reason: string): string | null {
  if (!mode || !amount.trim() || !reason.trim()) return FILL_ALL_FIELDS;
  if (!/^\d+$/.test(amount.trim()) || Number(amount.trim()) <= 0) return INVALID_AMOUNT;
  return null;
}

export function successMessage(mode: CreditMode, amount: number): string {
  return `Successfully ${mode === 'add' ? 'added' : 'deducted'} ${plural(amount, 'credit')}`;
}

/**
 * Add or deduct credits with a reason (through the API's credits ledger; audited). Submit stays
 * disabled until amount and reason are filled; success is a green banner, errors a red one.
 */
export function AdjustCreditsForm({ user, onAdjusted }: { user: AdminUserDetails; onAdjusted: (user: AdminUserDetails) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [mode, setMode] = useState<CreditMode>('add');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  /** A new mode starts a new adjustment: the amount and the banners of the last one go (docs/console.md). */
  function changeMode(next: CreditMode) {
    if (next === mode) return;
    setMode(next);
    setAmount('');
    setError(null);
    setSuccess(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSuccess(null);
    const problem = validateAdjustment(mode, amount, reason);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    const n = Number(amount.trim());
    try {
      const updated = await dataProvider.adjustCredits(user.id, { mode, amount: n, reason: reason.trim() });
      setSuccess(successMessage(mode, n));
      setAmount('');
      setReason('');
      onAdjusted(updated);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to adjust credits');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Card variant="outlined">
      <CardHeader title="Adjust credits" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent>
        <Box component="form" noValidate onSubmit={submit} aria-label="Adjust credits">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              select
              label="Mode"
              value={mode}
              onChange={(e) => changeMode(e.target.value as CreditMode)}
              sx={{ width: { sm: 150 }, flexShrink: 0 }}
            >
              <MenuItem value="add">Add</MenuItem>
              <MenuItem value="deduct">Deduct</MenuItem>
            </TextField>
            <TextField
              label="Amount"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={{ width: { sm: 150 }, flexShrink: 0 }}
            />
            <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ flex: 1, minWidth: 200 }} />
            <Button type="submit" variant="contained" disabled={!amount || !reason || submitting} sx={{ alignSelf: { sm: 'center' } }}>
              {mode === 'add' ? 'Add credits' : 'Deduct credits'}
            </Button>
          </Stack>
        </Box>
        {error && (
          <Alert severity="error" variant="filled" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        <SuccessBanner message={success} />
      </CardContent>
    </Card>
  );
}
