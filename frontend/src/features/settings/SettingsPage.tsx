import { Button, Card, Stack, StackSeparator, Switch, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { PageSpinner } from '../../components/PageSpinner';
import { notify } from '../../components/toaster';
import { DashboardPageHeader } from '../dashboard/DashboardPageHeader';
import { LoadFailed } from '../dashboard/LoadFailed';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { DeveloperSettings } from './DeveloperSettings';
import { DownloadMyData } from './DownloadMyData';
import { SecuritySettings } from './SecuritySettings';
import { type NotificationSettings, settingsQueryOptions, useSaveSettings } from './settings-queries';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';

const notificationToggles: ReadonlyArray<{ key: keyof NotificationSettings; label: string; description: string }> = [
  { key: 'email_notifications', label: 'Email Notifications', description: 'Emails about your account, credits and plan.' },
  {
    key: 'generation_notifications',
    label: 'Generation Notifications',
    description: 'A message when a generation has finished.',
  },
  { key: 'marketing_emails', label: 'Marketing Emails', description: 'News, offers and new outfits now and then.' },
];

function SettingToggle({
  label,
  description,
  checked,
  onCheckedChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
}) {
  const descriptionId = useId();
  return (
    <Switch.Root
      checked={checked}
      onCheckedChange={(details) => onCheckedChange(details.checked)}
      display="flex"
      justifyContent="space-between"
      alignItems="center"
      gap="6"
      w="full"
      py="4"
      cursor="pointer"
    >
      <Switch.HiddenInput role="switch" aria-describedby={descriptionId} />
      <Stack gap="0.5">
        <Switch.Label fontWeight="medium">{label}</Switch.Label>
        <Text id={descriptionId} fontSize="sm" color="fg.muted">
          {description}
        </Text>
      </Stack>
      <Switch.Control flexShrink="0" />
    </Switch.Root>
  );
}

function NotificationsForm({ initial }: { initial: NotificationSettings }) {
  const [settings, setSettings] = useState(initial);
  const save = useSaveSettings();
  // `initial` is the saved set (the query's data, replaced by what a save answers).
  const dirty = notificationToggles.some(({ key }) => settings[key] !== initial[key]);

  const saveAll = () =>
    save.mutate(settings, {
      onSuccess: () => notify.success({ title: 'Settings saved successfully' }),
      onError: () => notify.error({ title: 'Failed to save settings' }),
    });

  return (
    <Card.Root>
      <UnsavedChangesGuard dirty={dirty} what="your notification settings" />
      <Card.Header>
        <Card.Title as="h2">Notifications</Card.Title>
      </Card.Header>
      <Card.Body pt="2">
        <Stack gap="0" separator={<StackSeparator borderColor="border.muted" />}>
          {notificationToggles.map(({ key, label, description }) => (
            <SettingToggle
              key={key}
              label={label}
              description={description}
              checked={settings[key]}
              onCheckedChange={(checked) => setSettings((current) => ({ ...current, [key]: checked }))}
            />
          ))}
        </Stack>
      </Card.Body>
      <Card.Footer>
        <Button onClick={saveAll} loading={save.isPending} loadingText="Saving...">
          Save All Settings
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}

function AccountActions() {
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">Privacy and security</Card.Title>
      </Card.Header>
      <Card.Body>
        <Stack gap="6" separator={<StackSeparator borderColor="border.muted" />}>
          <SecuritySettings />
          <Stack gap="3" align="flex-start">
            <Stack gap="0.5">
              <Text as="h3" fontWeight="medium">
                Your data
              </Text>
              <Text fontSize="sm" color="fg.muted">
                Download a copy of everything your account holds (photos, results, details, tickets, credits), or delete your account with
                all of it. Deleting cannot be undone.
              </Text>
            </Stack>
            <DownloadMyData />
            <DeleteAccountDialog />
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** Settings (docs/product.md; persisted, docs/product.md): notification toggles and account actions. */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const { data, isError, isPending, refetch } = useQuery(settingsQueryOptions);

  useEffect(() => {
    if (isError) notify.error({ title: 'Failed to load settings' });
  }, [isError]);

  return (
    <>
      <DashboardPageHeader title="Settings" description="What we send you, your data and your account's security." />
      <Stack gap="6">
        {isPending ? (
          <PageSpinner label="Loading your settings" />
        ) : isError ? (
          <LoadFailed message="Failed to load settings" onRetry={() => void refetch()} />
        ) : (
          <NotificationsForm initial={data} />
        )}
        <AccountActions />
        <DeveloperSettings />
      </Stack>
    </>
  );
}
