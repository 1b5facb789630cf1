import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * react-admin's themes with colours that pass WCAG AA (axe's color-contrast, 4.5:1 for text): its
 * light theme paints the app bar in its secondary colour, #2196f3, under white text (3.1:1). The
 * same blue family, darker: #1565c0 under white is 5.8:1. The primary colour (buttons such as "Add
 * filter" and "Create": MUI's #1976d2 is 4.4:1 on react-admin's #fafafb page) takes the same blue,
 * and the status colours are darkened likewise, for white text on them and for their text on the
 * tinted rows of open tickets (#fbedee): warning 5.7:1 on white (MUI's #ed6c02: 3.1:1), info 7.4:1,
 * success 7.9:1, error 5.6:1 (MUI's #2e7d32 and #d32f2f fall under 4.5:1 on the tint). The dark
 * theme is react-admin's (its app bar is dark grey under white text).
 */
export const consoleLightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    primary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    secondary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    warning: { light: '#ff9800', main: '#a84b00', dark: '#7a3600', contrastText: '#fff' },
    info: { light: '#03a9f4', main: '#01579b', dark: '#002f6c', contrastText: '#fff' },
    success: { light: '#4caf50', main: '#1b5e20', dark: '#003300', contrastText: '#fff' },
    error: { light: '#ef5350', main: '#c62828', dark: '#8e0000', contrastText: '#fff' },
  },
};

export const consoleDarkTheme: RaThemeOptions = defaultDarkTheme;
