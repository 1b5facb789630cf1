import BlockIcon from '@mui/icons-material/Block';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useCan } from '../../auth/role';
import { FILL_ALL_FIELDS } from './AdjustCreditsForm';
import { when } from './figures';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { AdminUserDetailsDto as AdminUserDetails } from '@fitting-room/api-client';

/** AdminSuspensionDto: the reason is at most 500 characters. */
export const SUSPENSION_REASON_MAX = 500;

/** The account's state at a glance: address proven, two-factor, suspended. */
function StatusChips({ user }: { user: AdminUserDetails }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} role="list" aria-label="Account status">
      <Chip
        role="listitem"
        label={user.email_verified ? 'Email verified' : 'Email not verified'}
        color={user.email_verified ? 'success' : 'warning'}
        variant={user.email_verified ? 'filled' : 'outlined'}
      />
      <Chip
        role="listitem"
        label={user.two_factor_enabled ? 'Two-factor on' : 'Two-factor off'}
        color={user.two_factor_enabled ? 'success' : 'default'}
        variant={user.two_factor_enabled ? 'filled' : 'outlined'}
      />
      <Chip
        role="listitem"
        label={user.suspended_at ? 'Suspended' : 'Active'}
        color={user.suspended_at ? 'error' : 'success'}
        variant={user.suspended_at ? 'filled' : 'outlined'}
        data-testid="user-suspension"
      />
    </Stack>
  );
}

/**
 * Suspend, with the reason the API requires (recorded in the audit log and shown here to staff).
 * The dialog is the confirmation: it says what happens, and nothing is sent before its button.
 */
function SuspendButton({ user, onDone }: { user: AdminUserDetails; onDone: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);

  const close = () => {
    if (busy) return;
    setOpen(false);
    setError(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setError(FILL_ALL_FIELDS);
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await dataProvider.suspendUser(user.id, { reason: reason.trim() });
      notify('Account suspended', { type: 'success' });
      setOpen(false);
      setReason('');
      onDone();
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Failed to suspend the account';
      setError(message);
      notify(message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button color="error" variant="contained" startIcon={<BlockIcon />} onClick={() => setOpen(true)}>
        Suspend
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="suspend-title" aria-describedby="suspend-description" fullWidth maxWidth="sm">
        <Box component="form" noValidate onSubmit={submit} aria-label="Suspend account">
          <DialogTitle id="suspend-title">Suspend this account?</DialogTitle>
          <DialogContent>
            <DialogContentText id="suspend-description" sx={{ mb: 2 }}>
              {user.email} will not be able to sign in until the suspension is lifted. Their sessions end at once, and a generation they
              have running is cancelled and its credits released.
            </DialogContentText>
            <TextField
              inputRef={field}
              autoFocus
              required
              fullWidth
              multiline
              minRows={2}
              label="Reason"
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                if (error === FILL_ALL_FIELDS) setError(null);
              }}
              error={error === FILL_ALL_FIELDS}
              helperText={`Recorded in the audit log and shown to staff on this page · ${reason.length} / ${SUSPENSION_REASON_MAX}`}
              slotProps={{ htmlInput: { maxLength: SUSPENSION_REASON_MAX } }}
            />
            {error && (
              <Alert severity="error" variant="filled" role="alert" sx={{ mt: 2 }}>
                {error}
              </Alert>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" color="error" variant="contained" loading={busy}>
              Suspend account
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </>
  );
}

/** Lift, after a confirmation. The sessions the suspension ended stay ended: the person signs in again. */
function LiftButton({ user, onDone }: { user: AdminUserDetails; onDone: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button variant="outlined" startIcon={<LockOpenIcon />} onClick={() => setOpen(true)}>
        Lift suspension
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="Lift the suspension?"
        content={`${user.email} will be able to sign in again.`}
        confirm="Lift suspension"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setBusy(true);
          try {
            await dataProvider.unsuspendUser(user.id);
            notify('Suspension lifted', { type: 'success' });
            onDone();
          } catch (error) {
            notify(error instanceof Error ? error.message : 'Failed to lift the suspension', { type: 'error' });
          } finally {
            setBusy(false);
            setOpen(false);
          }
        }}
      />
    </>
  );
}

/**
 * The account's status (verified address, two-factor, suspension with when, by whom and why) and,
 * for the roles the access policy allows (admins), Suspend or Lift suspension.
 */
export function AccountStatus({ user, onChanged }: { user: AdminUserDetails; onChanged: () => void }) {
  const canSuspend = useCan('user-suspension', 'create');
  const canLift = useCan('user-suspension', 'delete');
  const suspended = !!user.suspended_at;
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardHeader title="Account status" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
          <StatusChips user={user} />
          {suspended
            ? canLift && <LiftButton user={user} onDone={onChanged} />
            : canSuspend && <SuspendButton user={user} onDone={onChanged} />}
        </Stack>
        {suspended && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="suspension-details">
            <Typography component="div" variant="body2" sx={{ fontWeight: 500 }}>
              Suspended on {when(user.suspended_at!)}
              {user.suspended_by ? ` by ${user.suspended_by}` : ''}
            </Typography>
            {user.suspension_reason && (
              <Typography component="div" variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
                Reason: {user.suspension_reason}
              </Typography>
            )}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
