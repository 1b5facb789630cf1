import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import { GenerationList } from './GenerationList';

export default { list: GenerationList, icon: PhotoLibraryIcon };
