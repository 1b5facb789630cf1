import { Badge, Button, Card, HStack, Link, Stack, Text, Textarea } from '@chakra-ui/react';
import { listMyTickets, type MyTicketDto, replyToMyTicket } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { FormAlert } from '../../components/FormAlert';
import { PageSpinner } from '../../components/PageSpinner';
import { DashboardPageHeader } from '../dashboard/DashboardPageHeader';
import { LoadFailed } from '../dashboard/LoadFailed';

const myTicketsQueryOptions = queryOptions({
  queryKey: ['me', 'tickets'],
  queryFn: ({ signal }) => unwrap(listMyTickets({ signal })),
});

/** What each status means to the person who wrote. */
const STATUS: Record<MyTicketDto['status'], { label: string; palette: string }> = {
  open: { label: 'Open', palette: 'blue' },
  in_progress: { label: 'Waiting for you', palette: 'orange' },
  resolved: { label: 'Resolved', palette: 'green' },
  closed: { label: 'Closed', palette: 'gray' },
};

const KIND: Record<MyTicketDto['kind'], string> = { question: 'Question', billing: 'Billing', abuse_report: 'Report of an image' };

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The person writes again on a ticket: it opens again for the support team. */
function ReplyForm({ ticket }: { ticket: MyTicketDto }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const reply = useMutation({
    mutationFn: (message: string) => unwrap(replyToMyTicket({ path: { number: ticket.number }, body: { message } })),
    onSuccess: () => {
      setText('');
      void queryClient.invalidateQueries({ queryKey: myTicketsQueryOptions.queryKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setProblem('Message is required');
      return;
    }
    setProblem(null);
    reply.mutate(text.trim());
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="2">
        <label htmlFor={fieldId}>
          <Text as="span" fontSize="sm" fontWeight="medium">
            Reply on ticket #{ticket.number}
          </Text>
        </label>
        <Textarea id={fieldId} value={text} onChange={(event) => setText(event.target.value)} rows={3} maxLength={5000} />
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {reply.isError ? <FormAlert>{errorMessage(reply.error)}</FormAlert> : null}
        <Button type="submit" alignSelf="flex-start" size="sm" loading={reply.isPending} loadingText="Sending...">
          Send reply
        </Button>
      </Stack>
    </form>
  );
}

function TicketCard({ ticket }: { ticket: MyTicketDto }) {
  const status = STATUS[ticket.status];
  const headingId = useId();
  return (
    <Card.Root as="article" aria-labelledby={headingId}>
      <Card.Header>
        <HStack gap="3" wrap="wrap">
          <Text as="h2" id={headingId} fontWeight="semibold">
            #{ticket.number} · {ticket.subject}
          </Text>
          <Badge colorPalette={status.palette} variant="subtle">
            {status.label}
          </Badge>
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {KIND[ticket.kind]}, sent {when(ticket.created_at)}
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          <Text whiteSpace="pre-wrap">{ticket.message}</Text>
          {ticket.messages.map((m, i) => (
            <Stack
              key={`${m.created_at}-${i}`}
              gap="1"
              ps="4"
              borderStartWidth="3px"
              borderColor={m.kind === 'reply' ? 'blue.500' : 'border'}
            >
              <Text fontSize="sm" color="fg.muted">
                {m.kind === 'reply' ? 'Support replied' : 'You wrote'}, {when(m.created_at)}
              </Text>
              <Text whiteSpace="pre-wrap">{m.body}</Text>
            </Stack>
          ))}
          {ticket.status === 'closed' ? (
            <Text fontSize="sm" color="fg.muted">
              This ticket is closed. To write again, send a new message from the{' '}
              <Link asChild>
                <RouterLink to={paths.contact}>contact page</RouterLink>
              </Link>
              .
            </Text>
          ) : (
            <ReplyForm ticket={ticket} />
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * "My tickets": the messages the person sent to support while signed in, each with its number
 * (#1042), its status (open, waiting for you, resolved, closed) and the replies; writing again
 * opens it again for the support team.
 */
export function MyTicketsPage() {
  useDocumentTitle('My Tickets');
  const { data, isPending, isError, refetch } = useQuery(myTicketsQueryOptions);
  return (
    <>
      <DashboardPageHeader title="My Tickets" description="Your messages to our support team and their replies." />
      {isPending ? (
        <PageSpinner label="Loading your tickets" />
      ) : isError ? (
        <LoadFailed message="Failed to load your tickets" onRetry={() => void refetch()} />
      ) : data.tickets.length === 0 ? (
        <Text>
          No tickets yet. Questions, billing or a report of an image:{' '}
          <Link asChild>
            <RouterLink to={paths.contact}>contact support</RouterLink>
          </Link>
          .
        </Text>
      ) : (
        <Stack gap="4">
          {data.tickets.map((ticket) => (
            <TicketCard key={ticket.number} ticket={ticket} />
          ))}
        </Stack>
      )}
    </>
  );
}
