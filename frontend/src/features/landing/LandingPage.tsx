import { useDocumentTitle } from '../../app/useDocumentTitle';
import { AuthDialogHost } from '../auth/AuthDialogHost';
import { HeroSection } from './HeroSection';

/** The landing page (route `/`). Its sections stack here, in the order of the spec. */
export function LandingPage() {
  useDocumentTitle();
  return (
    <>
      <HeroSection />
      <AuthDialogHost />
    </>
  );
}
