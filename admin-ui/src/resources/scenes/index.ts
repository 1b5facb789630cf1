import LandscapeIcon from '@mui/icons-material/Landscape';
import { SceneCreate, SceneEdit } from './SceneForms';
import { SceneList } from './SceneList';

export default { list: SceneList, edit: SceneEdit, create: SceneCreate, icon: LandscapeIcon, recordRepresentation: 'name' };
