#pragma once

// qcustomplot.h uses Qt's `signals`, `slots`, `emit` and `foreach` keywords, which QT_NO_KEYWORDS
// turns off; include it only through this header, which lends it the keywords and
// takes them back afterwards so that our own code still cannot use them.
#include <QtGlobal>
#include <QObject>

#ifdef QT_NO_KEYWORDS
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
#else
#include <qcustomplot.h>
#endif
