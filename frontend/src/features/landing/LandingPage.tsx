import { useDocumentTitle } from '../../app/useDocumentTitle';
import { HeroSection } from './HeroSection';

/** The landing page (route `/`). Its sections stack here, in the order of the spec. */
export function LandingPage() {
  useDocumentTitle();
  return <HeroSection />;
}
