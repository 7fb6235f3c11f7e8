/**
 * The page's only door to the services: one function per operation, each a single IPC call. No
 * ipcRenderer, no Node, nothing else is exposed (contextIsolation and sandbox are on).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { CompanionApi } from '../contract/api.js';
import type { CameraView } from '../contract/camera.js';
import type { Snapshot } from '../contract/snapshot.js';

const call =
  (op: keyof CompanionApi) =>
  (...args: unknown[]) =>
    ipcRenderer.invoke(`companion:${op}`, args);

const api: CompanionApi & { onSnapshot(listener: (s: Snapshot) => void): () => void; onCamera(listener: (v: CameraView) => void): () => void } = {
  snapshot: call('snapshot') as CompanionApi['snapshot'],
  newGame: call('newGame') as CompanionApi['newGame'],
  play: call('play') as CompanionApi['play'],
  undo: call('undo') as CompanionApi['undo'],
  redo: call('redo') as CompanionApi['redo'],
  correct: call('correct') as CompanionApi['correct'],
  insert: call('insert') as CompanionApi['insert'],
  importRecord: call('importRecord') as CompanionApi['importRecord'],
  exportRecord: call('exportRecord') as CompanionApi['exportRecord'],
  listGames: call('listGames') as CompanionApi['listGames'],
  loadGame: call('loadGame') as CompanionApi['loadGame'],
  statistics: call('statistics') as CompanionApi['statistics'],
  pairing: call('pairing') as CompanionApi['pairing'],
  pairingAllow: call('pairingAllow') as CompanionApi['pairingAllow'],
  unpairScreen: call('unpairScreen') as CompanionApi['unpairScreen'],
  secondScreenMoves: call('secondScreenMoves') as CompanionApi['secondScreenMoves'],
  tileTypes: call('tileTypes') as CompanionApi['tileTypes'],
  tileChoices: call('tileChoices') as CompanionApi['tileChoices'],
  placements: call('placements') as CompanionApi['placements'],
  saveTile: call('saveTile') as CompanionApi['saveTile'],
  readTilePhoto: call('readTilePhoto') as CompanionApi['readTilePhoto'],
  camera: call('camera') as CompanionApi['camera'],
  cameraUse: call('cameraUse') as CompanionApi['cameraUse'],
  cameraReport: call('cameraReport') as CompanionApi['cameraReport'],
  cameraAnswer: call('cameraAnswer') as CompanionApi['cameraAnswer'],
  cameraTilesFitting: call('cameraTilesFitting') as CompanionApi['cameraTilesFitting'],
  cameraTurnsSeen: call('cameraTurnsSeen') as CompanionApi['cameraTurnsSeen'],
  teach: call('teach') as CompanionApi['teach'],
  teachStart: call('teachStart') as CompanionApi['teachStart'],
  teachStop: call('teachStop') as CompanionApi['teachStop'],
  teachLook: call('teachLook') as CompanionApi['teachLook'],
  teachAcceptSure: call('teachAcceptSure') as CompanionApi['teachAcceptSure'],
  teachPick: call('teachPick') as CompanionApi['teachPick'],
  teachName: call('teachName') as CompanionApi['teachName'],
  teachDiscard: call('teachDiscard') as CompanionApi['teachDiscard'],
  teachRetake: call('teachRetake') as CompanionApi['teachRetake'],
  teachCoverage: call('teachCoverage') as CompanionApi['teachCoverage'],
  taughtTiles: call('taughtTiles') as CompanionApi['taughtTiles'],
  taughtDelete: call('taughtDelete') as CompanionApi['taughtDelete'],
  taughtExport: call('taughtExport') as CompanionApi['taughtExport'],
  taughtImport: call('taughtImport') as CompanionApi['taughtImport'],
  cameraAskEverything: call('cameraAskEverything') as CompanionApi['cameraAskEverything'],
  cameraStartPieceCorners: call('cameraStartPieceCorners') as CompanionApi['cameraStartPieceCorners'],
  cameraFindStartPiece: call('cameraFindStartPiece') as CompanionApi['cameraFindStartPiece'],
  cameraPictureBoard: call('cameraPictureBoard') as CompanionApi['cameraPictureBoard'],
  cameraFrame: call('cameraFrame') as CompanionApi['cameraFrame'],
  cameraSetup: call('cameraSetup') as CompanionApi['cameraSetup'],
  cameraChoose: call('cameraChoose') as CompanionApi['cameraChoose'],
  cameraSheet: call('cameraSheet') as CompanionApi['cameraSheet'],
  cameraProfileSave: call('cameraProfileSave') as CompanionApi['cameraProfileSave'],
  cameraProfileUse: call('cameraProfileUse') as CompanionApi['cameraProfileUse'],
  cameraProfileDelete: call('cameraProfileDelete') as CompanionApi['cameraProfileDelete'],
  demoStart: call('demoStart') as CompanionApi['demoStart'],
  demoStop: call('demoStop') as CompanionApi['demoStop'],
  onSnapshot(listener) {
    const handler = (_e: IpcRendererEvent, s: Snapshot) => listener(s);
    ipcRenderer.on('companion:snapshot', handler);
    return () => ipcRenderer.off('companion:snapshot', handler);
  },
  onCamera(listener) {
    const handler = (_e: IpcRendererEvent, v: CameraView) => listener(v);
    ipcRenderer.on('companion:camera', handler);
    return () => ipcRenderer.off('companion:camera', handler);
  },
};

contextBridge.exposeInMainWorld('companion', api);
