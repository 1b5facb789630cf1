import { Box } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { AuthDialogHost } from '../auth/AuthDialogHost';
import { HeroSection } from './HeroSection';

// Below the fold: its code loads right after the entry bundle, off the critical path.
const LandingSections = lazy(() => import('./LandingSections'));

/** The landing page (route `/`). Its sections stack here, in the order of the product. */
export function LandingPage() {
  useDocumentTitle();
  return (
    <>
      <HeroSection />
      {/* The placeholder holds the footer below the fold until the sections arrive: no layout shift. */}
      <Suspense fallback={<Box minH="100vh" aria-hidden="true" />}>
        <LandingSections />
      </Suspense>
      <AuthDialogHost />
    </>
  );
}
