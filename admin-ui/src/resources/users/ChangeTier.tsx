import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useTierChoices } from './tiers';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { AdminTierChangePreviewDto as TierChangePreview, AdminUserDetailsDto as AdminUserDetails } from '@fitting-room/api-client';

const failure = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback);

/**
 * Admin only (the page hides it otherwise): sets a user's tier, after a confirmation that says what
 * the change gives. The words and the figure are the server's (GET .../tier-change, the rule the
 * change applies), and the change carries that figure back: if the balance moved meanwhile, the
 * server refuses (409), the dialog says so and shows the new figure, and nothing changed.
 */
export function ChangeTier({ user, onChanged }: { user: AdminUserDetails; onChanged: () => void }) {
  const choices = useTierChoices();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [tier, setTier] = useState<string>(user.tier);
  const [preview, setPreview] = useState<TierChangePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const review = async (): Promise<TierChangePreview | null> => {
    try {
      const answer = await dataProvider.previewTierChange(user.id, tier);
      setPreview(answer);
      return answer;
    } catch (err) {
      notify(failure(err, 'Failed to check the tier change'), { type: 'error' });
      return null;
    }
  };

  const open = async () => {
    setBusy(true);
    setError(null);
    await review();
    setBusy(false);
  };

  const close = () => {
    if (busy) return;
    setPreview(null);
    setError(null);
  };

  const confirm = async () => {
    if (!preview) return;
    setBusy(true);
    setError(null);
    try {
      await dataProvider.changeTier(user.id, preview.to_tier, preview.credits_added);
      notify(`Tier changed to ${preview.to_name}`, { type: 'success' });
      setPreview(null);
      onChanged();
    } catch (err) {
      // the balance moved (409) or another failure: say why, and show what the change gives now
      setError(failure(err, 'Failed to change the tier'));
      await review();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label="Change tier"
          value={choices.length ? tier : ''}
          onChange={(e) => setTier(e.target.value)}
          sx={{ minWidth: 0, flex: '1 1 180px', maxWidth: 240 }}
        >
          {choices.map((choice) => (
            <MenuItem key={choice.id} value={choice.id}>
              {choice.name}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          disabled={tier === user.tier || busy}
          onClick={() => void open()}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Save tier
        </Button>
      </Stack>
      <Dialog
        open={preview !== null}
        onClose={close}
        aria-labelledby="tier-change-title"
        aria-describedby="tier-change-summary"
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle id="tier-change-title">{preview?.title}</DialogTitle>
        <DialogContent>
          <DialogContentText id="tier-change-summary" data-testid="tier-change-summary">
            {preview?.summary}
          </DialogContentText>
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
          <Button variant="contained" onClick={() => void confirm()} loading={busy} disabled={!preview || preview.unchanged}>
            Change tier
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
