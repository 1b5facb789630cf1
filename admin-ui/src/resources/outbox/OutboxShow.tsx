import { Box, Card, CardContent, CardHeader, CircularProgress, Link, List, ListItem, Typography } from '@mui/material';
import { Show, useShowContext } from 'react-admin';
import { BANNER_ONLY, ShowErrorBanner } from '../../components/Banners';
import type { OutboxMessageDetailDto as OutboxMessage } from '@fitting-room/api-client';

const titleProps = { title: { variant: 'h6', component: 'h2' } } as const;

function Loading({ label }: { label: string }) {
  return <CircularProgress size={24} aria-label={label} />;
}

function Message() {
  // Until the message itself arrives, the record is the list's row (no text or HTML parts yet).
  const { record } = useShowContext<
    Partial<OutboxMessage> & Pick<OutboxMessage, 'id' | 'to' | 'subject' | 'template' | 'created_at' | 'links'>
  >();
  if (!record) return null;
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
      <Card variant="outlined">
        <CardHeader title={record.subject} slotProps={titleProps} />
        <CardContent sx={{ pt: 0 }}>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 }}>
            <Typography component="dt" color="text.secondary">
              To
            </Typography>
            <Typography component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
              {record.to}
            </Typography>
            <Typography component="dt" color="text.secondary">
              Date
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {new Date(record.created_at).toLocaleString()}
            </Typography>
            <Typography component="dt" color="text.secondary">
              Template
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {record.template}
            </Typography>
          </Box>
        </CardContent>
      </Card>

      <Card variant="outlined">
        <CardHeader title="Links" slotProps={titleProps} />
        <CardContent sx={{ pt: 0 }}>
          {record.links.length === 0 ? (
            <Typography color="text.secondary">This message has no links.</Typography>
          ) : (
            <List dense aria-label="Links of the message" sx={{ py: 0 }}>
              {record.links.map((href) => (
                <ListItem key={href} disableGutters>
                  {/* A new tab, without access back to the console (noopener) and without a referrer. */}
                  <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: 'break-all' }}>
                    {href}
                  </Link>
                </ListItem>
              ))}
            </List>
          )}
        </CardContent>
      </Card>

      <Card variant="outlined">
        <CardHeader title="Text part" slotProps={titleProps} />
        <CardContent sx={{ pt: 0 }}>
          {record.text === undefined ? (
            <Loading label="Loading the text part" />
          ) : (
            <Box
              component="pre"
              data-testid="outbox-text"
              sx={{ m: 0, p: 2, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 13 }}
            >
              {record.text}
            </Box>
          )}
        </CardContent>
      </Card>

      <Card variant="outlined">
        <CardHeader title="HTML part" subheader="Shown in a sandbox: no scripts, no forms, links do not open." slotProps={titleProps} />
        <CardContent sx={{ pt: 0 }}>
          {/* sandbox="" (every restriction): the mail's HTML cannot run code or reach the console. */}
          {record.html === undefined ? (
            <Loading label="Loading the HTML part" />
          ) : (
            <Box
              component="iframe"
              title={`HTML part of “${record.subject}”`}
              sandbox=""
              srcDoc={record.html}
              referrerPolicy="no-referrer"
              sx={{ width: '100%', height: 560, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white' }}
            />
          )}
        </CardContent>
      </Card>
    </Box>
  );
}

/** One message of the outbox: who, what, its links (each opens in a new tab), the text part, and the HTML part in a sandbox. */
export function OutboxShow() {
  return (
    <Show
      actions={false}
      error={
        <ShowErrorBanner>
          <Message />
        </ShowErrorBanner>
      }
      queryOptions={BANNER_ONLY}
      title="Outbox message"
    >
      <Message />
    </Show>
  );
}
