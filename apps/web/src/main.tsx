import { startApp } from './app/start-app.tsx';
import './styles.css';

startApp();
