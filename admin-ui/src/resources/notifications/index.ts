import NotificationsIcon from '@mui/icons-material/Notifications';
import { NotificationList } from './NotificationList';

export default { list: NotificationList, icon: NotificationsIcon, recordRepresentation: 'title' };
