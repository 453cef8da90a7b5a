// locale.js: the page's words and dates in the reader's language: one small table of words per
// language (English the fallback), dates and plurals from the platform (Intl), and the step that puts
// them into the page before its first paint.
//
// It is a classic script as well as a module (no import, no export; everything it offers is
// `globalThis.recentsLocale`): index.html loads it with a classic script tag at the end of the body,
// which the server inlines (allowed by its hash in the Content-Security-Policy), so it runs
// while the page is parsed, before anything paints: it localizes the page's words and the rows the
// server rendered in English (docs/CLIENTS.md, "Markup of the first rows"), then shows the page
// (style.css keeps it hidden until `<html data-locale>`). The modules import it (format.js) for the
// same tables, so a word is written once.
(() => {
  // Every language has every key of `en` (Tests/Web/locale.test.mjs holds them to it); a plural is a
  // form per Intl.PluralRules category of that language. `{name}`-style slots are filled by `fill`.
  const words = {
    en: {
      title: 'Recents',
      edit: 'Edit',
      done: 'Done',
      clear: 'Clear',
      filter: 'Filter',
      filterAll: 'All',
      filterMissed: 'Missed',
      calls: 'Calls',
      empty: 'Your recent calls will appear here.',
      offline: 'Offline',
      offlineWaiting: 'Offline: {waiting}',
      waiting: { one: '{count} change waits to be sent', other: '{count} changes wait to be sent' },
      status: { missed: 'Missed', incoming: 'Incoming', outgoing: 'Outgoing' },
      call: { missed: 'missed call', incoming: 'incoming call', outgoing: 'outgoing call' },
      videoCall: { missed: 'missed video call', incoming: 'incoming video call', outgoing: 'outgoing video call' },
      rowLabel: '{name}, {call}, {time}',
      options: { delete: 'Delete' },
      optionLabel: '{option} {name}',
      revealLabel: 'Show {option} for {name}',
      infoLabel: 'Call info',
      deleteForMe: 'Delete for me',
      deleteForEveryone: 'Delete for everyone',
      cancel: 'Cancel',
      confirmDelete: 'Delete the call with {name}?',
      confirmClear: 'Delete all calls?',
      deleted: 'Deleted {name}',
      deletedRows: { one: 'Deleted {count} row', other: 'Deleted {count} rows' },
      theRow: 'the row',
      changedElsewhere: 'it changed on another device',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: "Couldn't start editing: {reason}",
        finishEditing: "Couldn't finish editing: {reason}",
        open: "Couldn't open {name}: {reason}",
        close: "Couldn't close {name}: {reason}",
        delete: "Couldn't delete {name}: {reason}",
        clear: "Couldn't delete all calls: {reason}",
        change: "Couldn't change the list: {reason}",
      },
    },
    de: {
      title: 'Anrufe',
      edit: 'Bearbeiten',
      done: 'Fertig',
      clear: 'Leeren',
      filter: 'Filter',
      filterAll: 'Alle',
      filterMissed: 'Verpasst',
      calls: 'Anrufe',
      empty: 'Hier erscheinen deine letzten Anrufe.',
      offline: 'Offline',
      offlineWaiting: 'Offline: {waiting}',
      waiting: { one: '{count} Änderung wartet auf das Senden', other: '{count} Änderungen warten auf das Senden' },
      status: { missed: 'Verpasst', incoming: 'Eingehend', outgoing: 'Ausgehend' },
      call: { missed: 'verpasster Anruf', incoming: 'eingehender Anruf', outgoing: 'ausgehender Anruf' },
      videoCall: { missed: 'verpasster Videoanruf', incoming: 'eingehender Videoanruf', outgoing: 'ausgehender Videoanruf' },
      rowLabel: '{name}, {call}, {time}',
      options: { delete: 'Löschen' },
      optionLabel: '{option}: {name}',
      revealLabel: '{option} für {name} zeigen',
      infoLabel: 'Anrufinfo',
      deleteForMe: 'Für mich löschen',
      deleteForEveryone: 'Für alle löschen',
      cancel: 'Abbrechen',
      confirmDelete: 'Anruf mit {name} löschen?',
      confirmClear: 'Alle Anrufe löschen?',
      deleted: '{name} gelöscht',
      deletedRows: { one: '{count} Zeile gelöscht', other: '{count} Zeilen gelöscht' },
      theRow: 'Die Zeile',
      changedElsewhere: 'auf einem anderen Gerät geändert',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: 'Bearbeiten nicht möglich: {reason}',
        finishEditing: 'Bearbeiten ließ sich nicht beenden: {reason}',
        open: '{name} ließ sich nicht öffnen: {reason}',
        close: '{name} ließ sich nicht schließen: {reason}',
        delete: '{name} ließ sich nicht löschen: {reason}',
        clear: 'Die Anrufe ließen sich nicht löschen: {reason}',
        change: 'Die Liste ließ sich nicht ändern: {reason}',
      },
    },
    es: {
      title: 'Recientes',
      edit: 'Editar',
      done: 'Listo',
      clear: 'Borrar',
      filter: 'Filtro',
      filterAll: 'Todas',
      filterMissed: 'Perdidas',
      calls: 'Llamadas',
      empty: 'Tus llamadas recientes aparecerán aquí.',
      offline: 'Sin conexión',
      offlineWaiting: 'Sin conexión: {waiting}',
      waiting: {
        one: '{count} cambio pendiente de enviar',
        many: '{count} cambios pendientes de enviar',
        other: '{count} cambios pendientes de enviar',
      },
      status: { missed: 'Perdida', incoming: 'Entrante', outgoing: 'Saliente' },
      call: { missed: 'llamada perdida', incoming: 'llamada entrante', outgoing: 'llamada saliente' },
      videoCall: { missed: 'videollamada perdida', incoming: 'videollamada entrante', outgoing: 'videollamada saliente' },
      rowLabel: '{name}, {call}, {time}',
      options: { delete: 'Eliminar' },
      optionLabel: '{option}: {name}',
      revealLabel: 'Mostrar {option} para {name}',
      infoLabel: 'Información de la llamada',
      deleteForMe: 'Eliminar para mí',
      deleteForEveryone: 'Eliminar para todos',
      cancel: 'Cancelar',
      confirmDelete: '¿Eliminar la llamada con {name}?',
      confirmClear: '¿Eliminar todas las llamadas?',
      deleted: 'Se eliminó {name}',
      deletedRows: {
        one: 'Se eliminó {count} fila',
        many: 'Se eliminaron {count} filas',
        other: 'Se eliminaron {count} filas',
      },
      theRow: 'la fila',
      changedElsewhere: 'cambió en otro dispositivo',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: 'No se pudo empezar a editar: {reason}',
        finishEditing: 'No se pudo terminar de editar: {reason}',
        open: 'No se pudo abrir {name}: {reason}',
        close: 'No se pudo cerrar {name}: {reason}',
        delete: 'No se pudo eliminar {name}: {reason}',
        clear: 'No se pudieron eliminar las llamadas: {reason}',
        change: 'No se pudo cambiar la lista: {reason}',
      },
    },
    fr: {
      title: 'Récents',
      edit: 'Modifier',
      done: 'OK',
      clear: 'Effacer',
      filter: 'Filtre',
      filterAll: 'Tous',
      filterMissed: 'Manqués',
      calls: 'Appels',
      empty: 'Vos appels récents apparaîtront ici.',
      offline: 'Hors ligne',
      offlineWaiting: 'Hors ligne\u00a0: {waiting}',
      waiting: {
        one: '{count} modification en attente d’envoi',
        many: '{count} modifications en attente d’envoi',
        other: '{count} modifications en attente d’envoi',
      },
      status: { missed: 'Manqué', incoming: 'Entrant', outgoing: 'Sortant' },
      call: { missed: 'appel manqué', incoming: 'appel entrant', outgoing: 'appel sortant' },
      videoCall: { missed: 'appel vidéo manqué', incoming: 'appel vidéo entrant', outgoing: 'appel vidéo sortant' },
      rowLabel: '{name}, {call}, {time}',
      options: { delete: 'Supprimer' },
      optionLabel: '{option}\u00a0: {name}',
      revealLabel: 'Afficher {option} pour {name}',
      infoLabel: 'Infos sur l’appel',
      deleteForMe: 'Supprimer pour moi',
      deleteForEveryone: 'Supprimer pour tous',
      cancel: 'Annuler',
      confirmDelete: 'Supprimer l’appel avec {name}\u00a0?',
      confirmClear: 'Supprimer tous les appels\u00a0?',
      deleted: '{name} supprimé',
      deletedRows: {
        one: '{count} ligne supprimée',
        many: '{count} lignes supprimées',
        other: '{count} lignes supprimées',
      },
      theRow: 'la ligne',
      changedElsewhere: 'modifié sur un autre appareil',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: 'Impossible de commencer la modification\u00a0: {reason}',
        finishEditing: 'Impossible de terminer la modification\u00a0: {reason}',
        open: 'Impossible d’ouvrir {name}\u00a0: {reason}',
        close: 'Impossible de fermer {name}\u00a0: {reason}',
        delete: 'Impossible de supprimer {name}\u00a0: {reason}',
        clear: 'Impossible de supprimer tous les appels\u00a0: {reason}',
        change: 'Impossible de modifier la liste\u00a0: {reason}',
      },
    },
    ru: {
      title: 'Недавние',
      edit: 'Изменить',
      done: 'Готово',
      clear: 'Очистить',
      filter: 'Фильтр',
      filterAll: 'Все',
      filterMissed: 'Пропущенные',
      calls: 'Звонки',
      empty: 'Здесь появятся ваши недавние звонки.',
      offline: 'Нет сети',
      offlineWaiting: 'Нет сети: {waiting}',
      waiting: {
        one: '{count} изменение ждёт отправки',
        few: '{count} изменения ждут отправки',
        many: '{count} изменений ждут отправки',
        other: '{count} изменения ждут отправки',
      },
      status: { missed: 'Пропущенный', incoming: 'Входящий', outgoing: 'Исходящий' },
      call: { missed: 'пропущенный звонок', incoming: 'входящий звонок', outgoing: 'исходящий звонок' },
      videoCall: { missed: 'пропущенный видеозвонок', incoming: 'входящий видеозвонок', outgoing: 'исходящий видеозвонок' },
      rowLabel: '{name}, {call}, {time}',
      options: { delete: 'Удалить' },
      optionLabel: '{option}: {name}',
      revealLabel: 'Показать «{option}» для {name}',
      infoLabel: 'Информация о звонке',
      deleteForMe: 'Удалить у меня',
      deleteForEveryone: 'Удалить у всех',
      cancel: 'Отмена',
      confirmDelete: 'Удалить звонок с контактом {name}?',
      confirmClear: 'Удалить все звонки?',
      deleted: 'Удалено: {name}',
      deletedRows: {
        one: 'Удалена {count} строка',
        few: 'Удалены {count} строки',
        many: 'Удалено {count} строк',
        other: 'Удалено {count} строки',
      },
      theRow: 'строку',
      changedElsewhere: 'изменено на другом устройстве',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: 'Не удалось начать изменение: {reason}',
        finishEditing: 'Не удалось завершить изменение: {reason}',
        open: 'Не удалось открыть {name}: {reason}',
        close: 'Не удалось закрыть {name}: {reason}',
        delete: 'Не удалось удалить {name}: {reason}',
        clear: 'Не удалось удалить все звонки: {reason}',
        change: 'Не удалось изменить список: {reason}',
      },
    },
    pt: {
      title: 'Recentes',
      edit: 'Editar',
      done: 'OK',
      clear: 'Limpar',
      filter: 'Filtro',
      filterAll: 'Todas',
      filterMissed: 'Perdidas',
      calls: 'Chamadas',
      empty: 'Suas chamadas recentes aparecerão aqui.',
      offline: 'Sem conexão',
      offlineWaiting: 'Sem conexão: {waiting}',
      waiting: {
        one: '{count} alteração aguardando envio',
        many: '{count} alterações aguardando envio',
        other: '{count} alterações aguardando envio',
      },
      status: { missed: 'Perdida', incoming: 'Recebida', outgoing: 'Efetuada' },
      call: { missed: 'chamada perdida', incoming: 'chamada recebida', outgoing: 'chamada efetuada' },
      videoCall: {
        missed: 'chamada de vídeo perdida',
        incoming: 'chamada de vídeo recebida',
        outgoing: 'chamada de vídeo efetuada',
      },
      rowLabel: '{name}, {call}, {time}',
      options: { delete: 'Apagar' },
      optionLabel: '{option}: {name}',
      revealLabel: 'Mostrar {option} para {name}',
      infoLabel: 'Informações da chamada',
      deleteForMe: 'Apagar para mim',
      deleteForEveryone: 'Apagar para todos',
      cancel: 'Cancelar',
      confirmDelete: 'Apagar a chamada com {name}?',
      confirmClear: 'Apagar todas as chamadas?',
      deleted: '{name} apagado',
      deletedRows: {
        one: '{count} linha apagada',
        many: '{count} linhas apagadas',
        other: '{count} linhas apagadas',
      },
      theRow: 'a linha',
      changedElsewhere: 'foi alterada em outro dispositivo',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: 'Não foi possível começar a editar: {reason}',
        finishEditing: 'Não foi possível terminar a edição: {reason}',
        open: 'Não foi possível abrir {name}: {reason}',
        close: 'Não foi possível fechar {name}: {reason}',
        delete: 'Não foi possível apagar {name}: {reason}',
        clear: 'Não foi possível apagar todas as chamadas: {reason}',
        change: 'Não foi possível alterar a lista: {reason}',
      },
    },
    ja: {
      title: '履歴',
      edit: '編集',
      done: '完了',
      clear: '消去',
      filter: 'フィルタ',
      filterAll: 'すべて',
      filterMissed: '不在着信',
      calls: '通話',
      empty: '最近の通話がここに表示されます。',
      offline: 'オフライン',
      offlineWaiting: 'オフライン: {waiting}',
      waiting: { other: '{count}件の変更が送信待ちです' },
      status: { missed: '不在着信', incoming: '着信', outgoing: '発信' },
      call: { missed: '不在着信', incoming: '着信', outgoing: '発信' },
      videoCall: { missed: 'ビデオ通話の不在着信', incoming: 'ビデオ通話の着信', outgoing: 'ビデオ通話の発信' },
      rowLabel: '{name}、{call}、{time}',
      options: { delete: '削除' },
      optionLabel: '{name}を{option}',
      revealLabel: '{name}の{option}を表示',
      infoLabel: '通話情報',
      deleteForMe: '自分のみ削除',
      deleteForEveryone: '全員から削除',
      cancel: 'キャンセル',
      confirmDelete: '{name}との通話を削除しますか？',
      confirmClear: 'すべての通話を削除しますか？',
      deleted: '{name}を削除しました',
      deletedRows: { other: '{count}行を削除しました' },
      theRow: 'この行',
      changedElsewhere: '別のデバイスで変更されました',
      httpStatus: 'HTTP {status}',
      refused: {
        startEditing: '編集を開始できませんでした: {reason}',
        finishEditing: '編集を終了できませんでした: {reason}',
        open: '{name}を開けませんでした: {reason}',
        close: '{name}を閉じられませんでした: {reason}',
        delete: '{name}を削除できませんでした: {reason}',
        clear: 'すべての通話を削除できませんでした: {reason}',
        change: 'リストを変更できませんでした: {reason}',
      },
    },
  };

  /** `template` with each `{key}` replaced by `params[key]`. */
  function fill(template, params = {}) {
    return template.replace(/\{(\w+)\}/g, (slot, key) => (key in params ? String(params[key]) : slot));
  }

  /** The peer name as a row shows it: with ` (N)` when the row groups N > 1 calls. */
  function displayName(row) {
    return row.count > 1 ? `${row.peer.name} (${row.count})` : row.peer.name;
  }

  /** `missed`, `outgoing` or `incoming`: what a row's status line says (a mixed row: its newest call). */
  function statusKey(row) {
    if (row.missed) return 'missed';
    if (row.status === 'outgoing' || row.status === 'incoming') return row.status;
    return row.outgoing && !row.incoming ? 'outgoing' : 'incoming';
  }

  /**
   * The tag the page speaks: the first of `preferred` (BCP 47 tags, the reader's order) whose language
   * has a table, as written there (so `en-GB` keeps its 24-hour clock), else `en`.
   */
  function pick(preferred) {
    for (const tag of preferred) {
      let canonical;
      try {
        [canonical] = Intl.getCanonicalLocales(tag);
      } catch {
        continue; // not a tag (a typo in ?lang=): the next one
      }
      if (canonical && Object.hasOwn(words, canonical.split('-')[0])) return canonical;
    }
    return 'en';
  }

  /** The reader's tag in a window: `?lang=` first (for tests), then `navigator.languages`. */
  function readerTag(win) {
    const asked = new URLSearchParams(win.location.search).get('lang');
    const languages = win.navigator.languages?.length ? win.navigator.languages : [win.navigator.language];
    return pick([...(asked ? [asked] : []), ...languages.filter(Boolean)]);
  }

  /**
   * The words and dates of one language. `times` and `options` replace the Intl rule for a row's time
   * and the table's option titles (for the contract's fixed form, format.js `contract`).
   */
  class Locale {
    constructor(tag, { times = null, options = null } = {}) {
      this.tag = tag;
      this.language = tag.split('-')[0];
      this.words = { ...words.en, ...(words[this.language] ?? {}) };
      this.times = times;
      this.options = options;
      this.plurals = new Intl.PluralRules(tag);
      this.numbers = new Intl.NumberFormat(tag);
      // Dates are formatted in UTC after shifting by the view's offset: the view's zone is an offset.
      this.formats = {
        time: new Intl.DateTimeFormat(tag, { timeStyle: 'short', timeZone: 'UTC' }),
        weekday: new Intl.DateTimeFormat(tag, { weekday: 'long', timeZone: 'UTC' }),
        date: new Intl.DateTimeFormat(tag, { dateStyle: 'short', timeZone: 'UTC' }),
      };
      this.yesterday = this.standalone(new Intl.RelativeTimeFormat(tag, { numeric: 'auto' }).format(-1, 'day'));
    }

    /** A word of the table (`edit`), its slots filled from `params`. */
    word(key, params) {
      const value = this.words[key];
      return typeof value === 'string' ? fill(value, params) : key;
    }

    /** The form of a plural word (`waiting`) for `count`, by the language's plural rules. */
    plural(key, count, params = {}) {
      const forms = this.words[key];
      const form = forms[this.plurals.select(count)] ?? forms.other;
      return fill(form, { ...params, count: this.numbers.format(count) });
    }

    /** A label that stands alone (the time column), so it starts as a sentence does: `gestern` → `Gestern`. */
    standalone(text) {
      return text.charAt(0).toLocaleUpperCase(this.tag) + text.slice(1);
    }

    /**
     * The time at the right of a row, in the view's zone `tz` (minutes east of UTC), at Unix time `now`
     * (seconds): today the locale's short time (12- or 24-hour as the locale has it), yesterday its word
     * for yesterday, two to six days ago the weekday, else (older, or in the future) its short date.
     */
    time(timestamp, tz, now = Date.now() / 1000) {
      if (this.times) return this.times(timestamp, tz, now);
      const day = (s) => Math.floor((s + tz * 60) / 86400);
      const days = day(now) - day(timestamp);
      const local = new Date((timestamp + tz * 60) * 1000);
      if (days === 0) return this.formats.time.format(local);
      if (days === 1) return this.yesterday;
      if (days > 1 && days < 7) return this.standalone(this.formats.weekday.format(local));
      return this.formats.date.format(local);
    }

    /** The title of a row option: this language's word for its key, else the server's title. */
    option(option) {
      if (this.options) return this.options(option);
      return this.words.options[option?.key ?? 'delete'] ?? option.title;
    }

    /** Every text of a row that depends on the language (the slots of the markup contract). */
    rowWords(row, tz, now) {
      const name = displayName(row);
      const option = this.option(row.options?.at(-1));
      const time = this.time(row.timestamp, tz, now);
      const status = statusKey(row);
      const call = this.words[row.video ? 'videoCall' : 'call'][status];
      return {
        name,
        option,
        time,
        status: this.words.status[status],
        label: fill(this.words.rowLabel, { name, call, time }),
        optionLabel: fill(this.words.optionLabel, { option, name }),
        revealLabel: fill(this.words.revealLabel, { option, name }),
        infoLabel: this.words.infoLabel,
      };
    }

    /** The line next to the list's name while the link is down. */
    offline(waiting) {
      return waiting ? this.word('offlineWaiting', { waiting: this.plural('waiting', waiting) }) : this.word('offline');
    }

    /** What the announcer reads when rows leave. */
    deleted(rows) {
      return rows.length === 1 ? this.word('deleted', { name: displayName(rows[0]) }) : this.plural('deletedRows', rows.length);
    }

    /** The text of a notice `{action: {key, name}, status, detail}` about an own action the server refused. */
    notice({ action, status, detail }) {
      const reason = status === 404 || status === 409 ? this.words.changedElsewhere : (detail ?? this.word('httpStatus', { status }));
      const template = this.words.refused[action.key] ?? this.words.refused.change;
      return fill(template, { name: action.name ?? this.words.theRow, reason });
    }
  }

  /** Writes a row's words into its server-rendered node, slot by slot, as row-markup.js writes them. */
  function localizeRow(li, w) {
    const option = li.querySelector('.row-delete');
    option.textContent = w.option;
    option.setAttribute('aria-label', w.optionLabel);
    li.querySelector('.row-content').setAttribute('aria-label', w.label);
    li.querySelector('.row-minus').setAttribute('aria-label', w.revealLabel);
    li.querySelector('.row-info')?.setAttribute('aria-label', w.infoLabel);
    li.querySelector('.row-status-text').textContent = w.status;
    li.querySelector('.row-time').textContent = w.time;
  }

  /** The rows the server put into `#rows`, in `locale`, from the data of `#recents-initial`. */
  function localizeRows(doc, locale, now) {
    const list = doc.getElementById('rows');
    if (!list) return;
    list.setAttribute('aria-label', locale.word('calls'));
    const data = doc.getElementById('recents-initial');
    if (!data || !list.firstElementChild) return;
    const initial = JSON.parse(data.textContent);
    const rows = new Map(initial.transition.inserts.map((i) => [i.row.id, i.row]));
    for (const li of list.children) {
      const row = rows.get(li.dataset.id);
      if (row) localizeRow(li, locale.rowWords(row, initial.view.tz, now));
    }
  }

  /**
   * The first-paint step: the page's words (`data-l10n` text, `data-l10n-label` accessible names) and
   * the server's rows in the reader's language, then `<html lang data-locale>`, which shows the page.
   */
  function localizePage(doc, now = Date.now() / 1000) {
    const root = doc.documentElement;
    try {
      const locale = new Locale(readerTag(doc.defaultView));
      root.lang = locale.tag;
      for (const node of doc.querySelectorAll('[data-l10n]')) node.textContent = locale.word(node.dataset.l10n);
      for (const node of doc.querySelectorAll('[data-l10n-label]')) {
        node.setAttribute('aria-label', locale.word(node.dataset.l10nLabel));
      }
      localizeRows(doc, locale, now);
    } finally {
      // Shown whatever happened: English rows are better than no rows.
      root.dataset.locale = root.lang;
    }
  }

  globalThis.recentsLocale = { words, fill, displayName, statusKey, pick, readerTag, Locale, localizeRow, localizePage };
  // As the page's classic script (not as a module, where there is no currentScript): localize now.
  if (typeof document !== 'undefined' && document.currentScript) localizePage(document);
})();
