// call-words.js: the words of the call info view and the missed-calls badge, per language (the rows'
// words live in locale.js, which the page runs before its first paint; these come later, with the
// modules, so they stay out of it). Every language has every key of `en` (Tests/Web/call-info.test.mjs).
// The kind words are Telegram's short call types (its info page's `stringForCallType`): the kind of a
// call, and a variant of each for a video call.

export const callWords = {
  en: {
    kinds: { incoming: 'Incoming', outgoing: 'Outgoing', missed: 'Missed', cancelled: 'Cancelled' },
    videoKinds: { incoming: 'Incoming Video', outgoing: 'Outgoing Video', missed: 'Missed Video', cancelled: 'Cancelled Video' },
    close: 'Close',
    missedCount: 'Missed {count}',
    rowGone: 'The call was deleted on another device',
  },
  de: {
    kinds: { incoming: 'Eingehend', outgoing: 'Ausgehend', missed: 'Verpasst', cancelled: 'Abgebrochen' },
    videoKinds: {
      incoming: 'Eingehender Videoanruf',
      outgoing: 'Ausgehender Videoanruf',
      missed: 'Verpasster Videoanruf',
      cancelled: 'Abgebrochener Videoanruf',
    },
    close: 'Schließen',
    missedCount: 'Verpasst {count}',
    rowGone: 'Der Anruf wurde auf einem anderen Gerät gelöscht',
  },
  es: {
    kinds: { incoming: 'Entrante', outgoing: 'Saliente', missed: 'Perdida', cancelled: 'Cancelada' },
    videoKinds: {
      incoming: 'Videollamada entrante',
      outgoing: 'Videollamada saliente',
      missed: 'Videollamada perdida',
      cancelled: 'Videollamada cancelada',
    },
    close: 'Cerrar',
    missedCount: 'Perdidas {count}',
    rowGone: 'La llamada se eliminó en otro dispositivo',
  },
  fr: {
    kinds: { incoming: 'Entrant', outgoing: 'Sortant', missed: 'Manqué', cancelled: 'Annulé' },
    videoKinds: {
      incoming: 'Appel vidéo entrant',
      outgoing: 'Appel vidéo sortant',
      missed: 'Appel vidéo manqué',
      cancelled: 'Appel vidéo annulé',
    },
    close: 'Fermer',
    missedCount: 'Manqués {count}',
    rowGone: 'L’appel a été supprimé sur un autre appareil',
  },
  ru: {
    kinds: { incoming: 'Входящий', outgoing: 'Исходящий', missed: 'Пропущенный', cancelled: 'Отменённый' },
    videoKinds: {
      incoming: 'Входящий видеозвонок',
      outgoing: 'Исходящий видеозвонок',
      missed: 'Пропущенный видеозвонок',
      cancelled: 'Отменённый видеозвонок',
    },
    close: 'Закрыть',
    missedCount: 'Пропущенные {count}',
    rowGone: 'Звонок удалён на другом устройстве',
  },
  pt: {
    kinds: { incoming: 'Recebida', outgoing: 'Efetuada', missed: 'Perdida', cancelled: 'Cancelada' },
    videoKinds: {
      incoming: 'Chamada de vídeo recebida',
      outgoing: 'Chamada de vídeo efetuada',
      missed: 'Chamada de vídeo perdida',
      cancelled: 'Chamada de vídeo cancelada',
    },
    close: 'Fechar',
    missedCount: 'Perdidas {count}',
    rowGone: 'A chamada foi apagada em outro dispositivo',
  },
  ja: {
    kinds: { incoming: '着信', outgoing: '発信', missed: '不在着信', cancelled: 'キャンセル' },
    videoKinds: { incoming: 'ビデオ着信', outgoing: 'ビデオ発信', missed: 'ビデオ不在着信', cancelled: 'ビデオ通話キャンセル' },
    close: '閉じる',
    missedCount: '不在着信 {count}',
    rowGone: '通話は別のデバイスで削除されました',
  },
};

/** The call words of `locale`'s language (locale.js's Locale), English where it has none. */
export function callWordsOf(locale) {
  return callWords[locale.language] ?? callWords.en;
}
