import { ACCESS_ROLES, type AccessRole, canUseConsole, ROLE_CHANGE_MESSAGES, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@fitting-room/shared';
import {
  Alert,
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
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useCan, useViewerId } from '../../auth/role';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { AdminUserDetailsDto as AdminUserDetails } from '@fitting-room/api-client';

const label = (role: string) => ROLE_LABELS[role as AccessRole] ?? role;

/**
 * The account's role (user, support, admin: the access policy's roles and what each gives) and,
 * for admins, the way to change it, after a confirmation that says what the new role opens and
 * whether two-factor must be turned on first. An admin's own role is not offered.
 */
export function StaffRole({ user, onChanged }: { user: AdminUserDetails; onChanged: () => void }) {
  const canEdit = useCan('user-role', 'edit');
  const own = useViewerId() === user.id;
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [role, setRole] = useState<AccessRole>(user.role);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setConfirming(false);
    setError(null);
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await dataProvider.setRole(user.id, role);
      notify(`Role changed to ${label(role)}`, { type: 'success' });
      setConfirming(false);
      onChanged();
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'Failed to change the role');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardHeader title="Role" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <Chip label={label(user.role)} data-testid="user-role" color={canUseConsole(user.role) ? 'primary' : 'default'} />
            <Typography variant="body2" color="text.secondary">
              {ROLE_DESCRIPTIONS[user.role]}
            </Typography>
          </Stack>
          {canEdit &&
            (own ? (
              <Typography variant="body2" color="text.secondary">
                {ROLE_CHANGE_MESSAGES.ownRole}
              </Typography>
            ) : (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField
                  select
                  size="small"
                  label="Change role"
                  value={role}
                  onChange={(e) => setRole(e.target.value as AccessRole)}
                  sx={{ minWidth: 0, flex: '1 1 180px', maxWidth: 240 }}
                >
                  {ACCESS_ROLES.map((choice) => (
                    <MenuItem key={choice} value={choice}>
                      {label(choice)}
                    </MenuItem>
                  ))}
                </TextField>
                <Button
                  variant="outlined"
                  disabled={role === user.role || busy}
                  onClick={() => setConfirming(true)}
                  sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
                >
                  Save role
                </Button>
              </Stack>
            ))}
        </Stack>
      </CardContent>
      <Dialog
        open={confirming}
        onClose={close}
        aria-labelledby="role-change-title"
        aria-describedby="role-change-what"
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle id="role-change-title">
          Change the role from {label(user.role)} to {label(role)}?
        </DialogTitle>
        <DialogContent>
          <DialogContentText id="role-change-what">
            {user.email}: {ROLE_DESCRIPTIONS[role]} The change applies at their next request and is written to the audit log; they are told
            by mail.
          </DialogContentText>
          {canUseConsole(role) && user.staff_two_factor_required && (
            <Alert severity="warning" sx={{ mt: 2 }}>
              Two-factor authentication is off on this account: the console will ask them to turn it on before it opens.
            </Alert>
          )}
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
          <Button variant="contained" onClick={() => void confirm()} loading={busy}>
            Change role
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
