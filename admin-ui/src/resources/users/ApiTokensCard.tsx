import { type AdminApiTokenDto, listAdminUserApiTokens, revokeAdminUserApiToken } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { useCan } from '../../auth/role';

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

const REASONS: Record<string, string> = {
  owner: 'revoked by its owner',
  admin: 'revoked by an admin',
  password_reset: 'ended by a password reset',
  account_claimed: 'ended when the address took the account over',
};

function stateOf(token: AdminApiTokenDto): { label: string; live: boolean } {
  if (token.revoked_at) return { label: REASONS[token.revoke_reason ?? ''] ?? 'revoked', live: false };
  if (token.expires_at && Date.parse(token.expires_at) <= Date.now()) return { label: 'expired', live: false };
  return { label: 'active', live: true };
}

/**
 * The user's personal API tokens (docs/api.md): every token, revoked and expired ones too, with its
 * prefix, scopes, dates and last use (never the token); admins revoke a live one (audited).
 */
export function ApiTokensCard({ userId }: { userId: string }) {
  const canList = useCan('user-api-tokens', 'list');
  const canRevoke = useCan('user-api-tokens', 'delete');
  const notify = useNotify();
  const [tokens, setTokens] = useState<AdminApiTokenDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setTokens(await unwrap(listAdminUserApiTokens({ path: { id: userId } })));
      setError(null);
    } catch (err) {
      setError(`Failed to load the API tokens: ${errorMessage(err)}`);
    }
  }, [userId]);

  useEffect(() => {
    if (canList) void load();
  }, [canList, load]);

  if (!canList) return null;

  const revoke = async (token: AdminApiTokenDto) => {
    setBusy(token.id);
    try {
      await unwrap(revokeAdminUserApiToken({ path: { id: userId, tokenId: token.id } }));
      notify(`Token "${token.name}" revoked`, { type: 'success' });
      await load();
    } catch (err) {
      notify(`Revoke failed: ${errorMessage(err)}`, { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card variant="outlined">
      <CardHeader title="API tokens" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent>
        {error ? (
          <Alert severity="error">{error}</Alert>
        ) : tokens === null ? (
          <Typography color="text.secondary">Loading...</Typography>
        ) : tokens.length === 0 ? (
          <Typography color="text.secondary">No API tokens.</Typography>
        ) : (
          <TableContainer tabIndex={0} role="region" aria-label="API tokens, scrollable">
            <Table size="small" aria-label="API tokens">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Token</TableCell>
                  <TableCell>Scopes</TableCell>
                  <TableCell>Created</TableCell>
                  <TableCell>Last used</TableCell>
                  <TableCell>Expires</TableCell>
                  <TableCell>State</TableCell>
                  {canRevoke && <TableCell />}
                </TableRow>
              </TableHead>
              <TableBody>
                {tokens.map((token) => {
                  const state = stateOf(token);
                  return (
                    <TableRow key={token.id}>
                      <TableCell>{token.name}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{token.prefix}...</TableCell>
                      <TableCell>{token.scopes.join(', ')}</TableCell>
                      <TableCell>{when(token.created_at, '')}</TableCell>
                      <TableCell>{when(token.last_used_at, 'Never')}</TableCell>
                      <TableCell>{when(token.expires_at, 'Never')}</TableCell>
                      <TableCell>
                        <Chip size="small" label={state.label} color={state.live ? 'success' : 'default'} />
                      </TableCell>
                      {canRevoke && (
                        <TableCell>
                          {state.live && (
                            <Button
                              size="small"
                              color="error"
                              disabled={busy !== null}
                              aria-label={`Revoke ${token.name}`}
                              onClick={() => void revoke(token)}
                            >
                              Revoke
                            </Button>
                          )}
                        </TableCell>
                      )}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
    </Card>
  );
}
