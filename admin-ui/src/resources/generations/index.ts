import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import { GenerationList } from './GenerationList';
import { GenerationShow } from './GenerationShow';

export default { list: GenerationList, show: GenerationShow, icon: PhotoLibraryIcon };
