import CheckroomIcon from '@mui/icons-material/Checkroom';
import { TemplateCreate, TemplateEdit } from './TemplateForms';
import { TemplateList } from './TemplateList';

export default { list: TemplateList, edit: TemplateEdit, create: TemplateCreate, icon: CheckroomIcon, recordRepresentation: 'name' };
