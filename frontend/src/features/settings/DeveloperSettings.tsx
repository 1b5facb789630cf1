import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Code,
  HStack,
  Input,
  NativeSelect,
  Stack,
  StackSeparator,
  Table,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import {
  type ApiTokenCreatedDto,
  type ApiTokenDto,
  createApiToken,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listApiTokens,
  listWebhookEndpoints,
  revokeApiToken,
  sendWebhookTestEvent,
  type WebhookDeliveryDto,
  type WebhookEndpointCreatedDto,
  type WebhookEndpointDto,
} from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { API_TOKEN_SCOPES, type ApiTokenScope, WEBHOOK_EVENTS, type WebhookEventType } from '@fitting-room/shared/developer-api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { notify } from '../../components/toaster';
import { copyText } from './security-queries';

export const apiTokensQueryKey = ['me', 'tokens'] as const;
export const webhooksQueryKey = ['me', 'webhooks'] as const;

const apiTokensQueryOptions = queryOptions({
  queryKey: apiTokensQueryKey,
  queryFn: ({ signal }) => unwrap(listApiTokens({ signal })),
});

const webhooksQueryOptions = queryOptions({
  queryKey: webhooksQueryKey,
  queryFn: ({ signal }) => unwrap(listWebhookEndpoints({ signal })),
  // while a delivery of the last minutes is on its way (queued, or its attempt in flight), its row follows it
  refetchInterval: (query) => (query.state.data?.some((e) => e.deliveries.some(onItsWay)) ? 1500 : false),
});

/** A delivery being made now or within a minute, of the last 10 minutes (not one waiting hours for its retry). */
function onItsWay(d: WebhookDeliveryDto): boolean {
  if (d.state !== 'pending' || Date.now() - Date.parse(d.created_at) > 10 * 60_000) return false;
  return !d.next_attempt_at || Date.parse(d.next_attempt_at) - Date.now() < 60_000;
}

const EXPIRIES = [
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
  { value: 'never', label: 'Never' },
] as const;

const when = (iso: string | null, never: string) => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : never);
const whenExactly = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A secret shown this once, with a copy button. */
function ShownOnce({ label, secret, onDone }: { label: string; secret: string; onDone(): void }) {
  return (
    <Alert.Root status="success" role="status">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Alert.Title>{label}</Alert.Title>
        <Alert.Description>Copy it now: it will not be shown again.</Alert.Description>
        <Code data-testid="shown-once" wordBreak="break-all" whiteSpace="normal" p="2">
          {secret}
        </Code>
        <HStack gap="2">
          <Button
            size="sm"
            onClick={() =>
              void copyText(secret).then((ok) =>
                ok ? notify.success({ title: 'Copied' }) : notify.error({ title: 'Copy failed: select it and copy it by hand' }),
              )
            }
          >
            Copy
          </Button>
          <Button size="sm" variant="outline" onClick={onDone}>
            Done
          </Button>
        </HStack>
      </Stack>
    </Alert.Root>
  );
}

function ChoiceList<T extends string>({
  legend,
  choices,
  chosen,
  onChange,
}: {
  legend: string;
  choices: Record<T, string>;
  chosen: T[];
  onChange(next: T[]): void;
}) {
  return (
    <Box as="fieldset">
      <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
        {legend}
      </Text>
      <Stack gap="2">
        {(Object.keys(choices) as T[]).map((name) => (
          <Checkbox.Root
            key={name}
            checked={chosen.includes(name)}
            onCheckedChange={(d) => onChange(d.checked === true ? [...chosen, name] : chosen.filter((c) => c !== name))}
            alignItems="flex-start"
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control mt="0.5" />
            <Checkbox.Label fontWeight="normal">
              <Code>{name}</Code> {choices[name]}
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Stack>
    </Box>
  );
}

function ApiTokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery(apiTokensQueryOptions);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>([]);
  const [expiry, setExpiry] = useState<string>('90');
  const [problem, setProblem] = useState<string>();
  const [created, setCreated] = useState<ApiTokenCreatedDto | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const create = useMutation({
    mutationFn: () =>
      unwrap(
        createApiToken({
          body: {
            name: name.trim(),
            scopes,
            expires_at: expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * 86_400_000).toISOString(),
          },
        }),
      ),
    onSuccess: (answer) => {
      setCreated(answer);
      setName('');
      setScopes([]);
      void queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
    },
    onError: () => focusSoon(errorRef),
  });
  const revoke = useMutation({
    mutationFn: (token: ApiTokenDto) => unwrap(revokeApiToken({ path: { id: token.id } })),
    onSuccess: (_answer, token) => notify.success({ title: `Token "${token.name}" revoked` }),
    onError: (error) => notify.error({ title: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!name.trim()) {
      setProblem('Name the token (for example, the script that uses it)');
      nameRef.current?.focus();
      return;
    }
    if (!scopes.length) {
      setProblem('Choose at least one scope');
      return;
    }
    setProblem(undefined);
    create.mutate();
  };

  return (
    <Stack gap="4">
      <Stack gap="0.5">
        <Text as="h3" fontWeight="medium">
          API tokens
        </Text>
        <Text fontSize="sm" color="fg.muted">
          For your own scripts: send a token as <Code>Authorization: Bearer frk_...</Code>. A token can never change your password, email,
          two-factor or tokens, nor open the console.
        </Text>
      </Stack>
      {created ? <ShownOnce label={`Your new token "${created.name}"`} secret={created.token} onDone={() => setCreated(null)} /> : null}
      <form onSubmit={submit} noValidate aria-label="Create an API token">
        <Stack gap="3">
          <FormField label="Token name" required error={problem && !name.trim() ? problem : undefined}>
            <Input ref={nameRef} name="token_name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </FormField>
          <ChoiceList legend="Scopes" choices={API_TOKEN_SCOPES} chosen={scopes} onChange={setScopes} />
          <FormField label="Expires">
            <NativeSelect.Root>
              <NativeSelect.Field name="token_expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
                {EXPIRIES.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          {problem && name.trim() ? <FormAlert>{problem}</FormAlert> : null}
          {create.isError ? <FormAlert ref={errorRef}>{errorMessage(create.error)}</FormAlert> : null}
          <Button type="submit" alignSelf="flex-start" loading={create.isPending} loadingText="Creating...">
            Create token
          </Button>
        </Stack>
      </form>
      {tokens.isError ? (
        <FormAlert>Failed to load your tokens</FormAlert>
      ) : tokens.data?.length ? (
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-label="Your API tokens">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Token</Table.ColumnHeader>
                <Table.ColumnHeader>Scopes</Table.ColumnHeader>
                <Table.ColumnHeader>Created</Table.ColumnHeader>
                <Table.ColumnHeader>Last used</Table.ColumnHeader>
                <Table.ColumnHeader>Expires</Table.ColumnHeader>
                <Table.ColumnHeader>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {tokens.data.map((t) => (
                <Table.Row key={t.id}>
                  <Table.Cell>{t.name}</Table.Cell>
                  <Table.Cell>
                    <Code>{t.prefix}...</Code>
                  </Table.Cell>
                  <Table.Cell>{t.scopes.join(', ')}</Table.Cell>
                  <Table.Cell>{when(t.created_at, '')}</Table.Cell>
                  <Table.Cell>{when(t.last_used_at, 'Never')}</Table.Cell>
                  <Table.Cell>{when(t.expires_at, 'Never')}</Table.Cell>
                  <Table.Cell>
                    <Button
                      size="xs"
                      variant="outline"
                      colorPalette="red"
                      aria-label={`Revoke ${t.name}`}
                      loading={revoke.isPending && revoke.variables?.id === t.id}
                      onClick={() => revoke.mutate(t)}
                    >
                      Revoke
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      ) : tokens.isSuccess ? (
        <Text fontSize="sm" color="fg.muted">
          No API tokens yet.
        </Text>
      ) : null}
    </Stack>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpointDto }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
  const test = useMutation({
    mutationFn: () => unwrap(sendWebhookTestEvent({ path: { id: endpoint.id } })),
    onSuccess: () => notify.success({ title: 'Test event sent' }),
    onError: (error) => notify.error({ title: errorMessage(error) }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(deleteWebhookEndpoint({ path: { id: endpoint.id } })),
    onSuccess: () => notify.success({ title: 'Endpoint deleted' }),
    onError: (error) => notify.error({ title: errorMessage(error) }),
    onSettled: refresh,
  });
  return (
    <Stack gap="3" borderWidth="1px" rounded="md" p="3" aria-label={`Webhook endpoint ${endpoint.url}`} role="group">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="medium" wordBreak="break-all">
            {endpoint.url}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {endpoint.events.join(', ')}
          </Text>
        </Stack>
        <Badge colorPalette={endpoint.enabled ? 'green' : 'red'}>{endpoint.enabled ? 'On' : 'Switched off'}</Badge>
      </HStack>
      {endpoint.enabled ? null : (
        <Text fontSize="sm" color="fg.error">
          {endpoint.disabled_reason ?? 'Switched off after failing deliveries.'} A test event that gets through switches it on again.
        </Text>
      )}
      <HStack gap="2">
        <Button size="sm" onClick={() => test.mutate()} loading={test.isPending} loadingText="Sending...">
          Send test event
        </Button>
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => remove.mutate()} loading={remove.isPending}>
          Delete endpoint
        </Button>
      </HStack>
      {endpoint.deliveries.length ? (
        <Table.ScrollArea>
          <Table.Root size="sm" aria-label="Delivery log">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Event</Table.ColumnHeader>
                <Table.ColumnHeader>State</Table.ColumnHeader>
                <Table.ColumnHeader>Response</Table.ColumnHeader>
                <Table.ColumnHeader>Attempts</Table.ColumnHeader>
                <Table.ColumnHeader>When</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {endpoint.deliveries.map((d) => (
                <Table.Row key={d.id}>
                  <Table.Cell>
                    <Code>{d.event_type}</Code>
                  </Table.Cell>
                  <Table.Cell>{d.state}</Table.Cell>
                  <Table.Cell>{d.last_status ?? d.last_error ?? '-'}</Table.Cell>
                  <Table.Cell>{d.attempts}</Table.Cell>
                  <Table.Cell>{whenExactly(d.last_attempt_at ?? d.created_at)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          No deliveries yet.
        </Text>
      )}
    </Stack>
  );
}

function Webhooks() {
  const queryClient = useQueryClient();
  const endpoints = useQuery(webhooksQueryOptions);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['generation.completed', 'generation.failed']);
  const [problem, setProblem] = useState<string>();
  const [created, setCreated] = useState<WebhookEndpointCreatedDto | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const create = useMutation({
    mutationFn: () => unwrap(createWebhookEndpoint({ body: { url: url.trim(), events } })),
    onSuccess: (answer) => {
      setCreated(answer);
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
    onError: () => focusSoon(errorRef),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!url.trim()) {
      setProblem('Enter the URL that will receive the events');
      urlRef.current?.focus();
      return;
    }
    if (!events.length) {
      setProblem('Choose at least one event');
      return;
    }
    setProblem(undefined);
    create.mutate();
  };
  return (
    <Stack gap="4">
      <Stack gap="0.5">
        <Text as="h3" fontWeight="medium">
          Webhooks
        </Text>
        <Text fontSize="sm" color="fg.muted">
          We POST each event to your HTTPS endpoint, signed in the Fitting-Room-Signature header, and retry a failed delivery for a day.
        </Text>
      </Stack>
      {created ? (
        <ShownOnce label={`The signing secret of ${created.url}`} secret={created.secret} onDone={() => setCreated(null)} />
      ) : null}
      <form onSubmit={submit} noValidate aria-label="Add a webhook endpoint">
        <Stack gap="3">
          <FormField label="Endpoint URL" required error={problem && !url.trim() ? problem : undefined}>
            <Input
              ref={urlRef}
              name="webhook_url"
              type="url"
              placeholder="https://example.com/hooks/fitting-room"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </FormField>
          <ChoiceList legend="Events" choices={WEBHOOK_EVENTS} chosen={events} onChange={setEvents} />
          {problem && url.trim() ? <FormAlert>{problem}</FormAlert> : null}
          {create.isError ? <FormAlert ref={errorRef}>{errorMessage(create.error)}</FormAlert> : null}
          <Button type="submit" alignSelf="flex-start" loading={create.isPending} loadingText="Adding...">
            Add endpoint
          </Button>
        </Stack>
      </form>
      {endpoints.isError ? <FormAlert>Failed to load your webhook endpoints</FormAlert> : null}
      {endpoints.data?.map((e) => (
        <EndpointCard key={e.id} endpoint={e} />
      ))}
    </Stack>
  );
}

/** Settings' "Developer" card (docs/api.md): personal API tokens and webhook endpoints with their delivery log. */
export function DeveloperSettings() {
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">Developer</Card.Title>
      </Card.Header>
      <Card.Body>
        <Stack gap="6" separator={<StackSeparator borderColor="border.muted" />}>
          <ApiTokens />
          <Webhooks />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
