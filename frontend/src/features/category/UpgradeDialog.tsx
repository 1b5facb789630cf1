import { Box, Button, chakra, CloseButton, Dialog, HStack, List, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { CheckIcon } from '../../components/icons';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { type Catalog, formatPrice, planFor, tierName } from '../catalog/catalog-helpers';
import { CatalogPicture } from '../catalog/CatalogPicture';
import type { CatalogTemplateDto } from '@fitting-room/api-client';

interface UpgradeDialogProps {
  catalog: Catalog;
  /** The locked template the dialog is about; null when closed. */
  template: CatalogTemplateDto | null;
  onClose(): void;
}

export const UPGRADE_FOOTER = 'Cancel anytime • No hidden fees • Instant access';

/**
 * The upgrade dialog of a locked template (docs/product.md): the tier it needs, that plan's price
 * per month, description and features (all from the catalogue), "Upgrade to <Tier>" and "Maybe later".
 */
export function UpgradeDialog({ catalog, template: requested, onClose }: UpgradeDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  // The last template stays rendered while the dialog animates closed.
  const [shown, setShown] = useState(requested);
  if (requested && requested !== shown) setShown(requested);
  const template = requested ?? shown;
  const plan = template ? planFor(catalog, template.requiredTier) : undefined;
  const tier = template ? tierName(catalog, template.requiredTier) : '';
  return (
    <Dialog.Root
      onInteractOutside={dismissGuard.onInteractOutside}
      open={requested !== null}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
      motionPreset="slide-in-bottom"
      size="md"
      lazyMount
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef}>
            {template ? (
              <>
                <Dialog.Header pe="14">
                  <HStack gap="4" align="center">
                    <CatalogPicture
                      src={template.thumbnail}
                      w="14"
                      h="auto"
                      aspectRatio="3 / 4"
                      borderRadius="md"
                      bg="bg.muted"
                      flexShrink="0"
                    />
                    <Stack gap="1" minW="0">
                      <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                        Unlock &ldquo;{template.name}&rdquo;
                      </Dialog.Title>
                      <Dialog.Description color="fg.muted" fontSize="sm">
                        This template requires {tier} or higher to access
                      </Dialog.Description>
                    </Stack>
                  </HStack>
                </Dialog.Header>
                <Dialog.Body>
                  {plan ? (
                    <Box borderWidth="1px" borderColor="brand.muted" bg="brand.subtle/40" borderRadius="xl" p="5">
                      <HStack justify="space-between" align="baseline" wrap="wrap" gap="2">
                        <Text fontFamily="heading" fontSize="lg" fontWeight="medium">
                          {plan.displayName}
                        </Text>
                        <Text>
                          <chakra.span fontSize="2xl" fontWeight="semibold">
                            {formatPrice(plan.price, plan.currency)}
                          </chakra.span>
                          <chakra.span color="fg.muted"> per month</chakra.span>
                        </Text>
                      </HStack>
                      <Text mt="1" fontSize="sm" color="fg.muted">
                        {plan.description}
                      </Text>
                      <List.Root variant="plain" gap="2" mt="4" fontSize="sm">
                        {plan.features.map((feature) => (
                          <List.Item key={feature} alignItems="flex-start">
                            <List.Indicator asChild color="brand.solid" mt="0.5">
                              <CheckIcon />
                            </List.Indicator>
                            {feature}
                          </List.Item>
                        ))}
                      </List.Root>
                    </Box>
                  ) : null}
                </Dialog.Body>
                <Dialog.Footer flexDirection="column" alignItems="stretch" gap="3">
                  <Stack direction={{ base: 'column-reverse', sm: 'row' }} gap="2" justify="flex-end">
                    <Button variant="ghost" onClick={onClose}>
                      Maybe later
                    </Button>
                    <Button asChild>
                      <RouterLink to={paths.pricing}>Upgrade to {tier}</RouterLink>
                    </Button>
                  </Stack>
                  <Text fontSize="xs" color="fg.muted" textAlign="center">
                    {UPGRADE_FOOTER}
                  </Text>
                </Dialog.Footer>
                <Dialog.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label="Close" />
                </Dialog.CloseTrigger>
              </>
            ) : null}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
