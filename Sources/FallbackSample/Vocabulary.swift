/// A locale the sample writes text in. Cases are in the byte order of their codes, so that
/// localized objects come out with sorted keys.
enum SampleLocale: Int, CaseIterable, Comparable {
    case de, en, es, fr

    var code: String {
        switch self {
        case .de: "de"
        case .en: "en"
        case .es: "es"
        case .fr: "fr"
        }
    }

    static func < (lhs: SampleLocale, rhs: SampleLocale) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The locale sets a funnel or paywall is written in; English always included.
    static let sets: [[SampleLocale]] = [
        [.de, .en], [.de, .en, .fr], [.en, .es], [.en, .es, .fr], [.de, .en, .es],
    ]
}

/// One piece of copy in every sample locale.
struct Phrase {
    let en: String
    let de: String
    let fr: String
    let es: String

    init(_ en: String, _ de: String, _ fr: String, _ es: String) {
        self.en = en
        self.de = de
        self.fr = fr
        self.es = es
    }

    subscript(locale: SampleLocale) -> String {
        switch locale {
        case .de: de
        case .en: en
        case .es: es
        case .fr: fr
        }
    }
}

/// A list of copy (benefits, loading steps) in every sample locale.
struct PhraseList {
    let items: [Phrase]

    init(_ items: [Phrase]) {
        self.items = items
    }
}

/// What an answer to a question looks like, which decides the clause operators a rule may use.
enum AnswerKind {
    case choice
    case multipleChoice
    case number(min: Int, max: Int)
    case text
    case consent
}

/// A question a funnel may ask: its id stem, the page types that can ask it and its copy.
struct Topic {
    let stem: String
    let types: [String]
    let kind: AnswerKind
    let title: Phrase
    var options: [(value: String, label: Phrase)] = []
    var placeholder: Phrase? = nil
    var suffix: Phrase? = nil
    var agreement: Phrase? = nil
}

enum Vocabulary {
    static let topics: [Topic] = [
        Topic(
            stem: "goal", types: ["single_choice", "picture_choice"], kind: .choice,
            title: Phrase(
                "What's your main goal?", "Was ist dein wichtigstes Ziel?",
                "Quel est ton objectif principal ?", "¿Cuál es tu objetivo principal?"),
            options: [
                ("lose_weight", Phrase("Lose weight", "Abnehmen", "Perdre du poids", "Perder peso")),
                ("build_muscle", Phrase("Build muscle", "Muskeln aufbauen", "Prendre du muscle", "Ganar músculo")),
                ("sleep_better", Phrase("Sleep better", "Besser schlafen", "Mieux dormir", "Dormir mejor")),
                ("reduce_stress", Phrase("Reduce stress", "Stress abbauen", "Réduire le stress", "Reducir el estrés")),
                (
                    "more_energy",
                    Phrase("Have more energy", "Mehr Energie haben", "Avoir plus d'énergie", "Tener más energía")
                ),
            ]),
        Topic(
            stem: "experience", types: ["single_choice"], kind: .choice,
            title: Phrase(
                "How experienced are you?", "Wie viel Erfahrung hast du?",
                "Quel est ton niveau ?", "¿Cuánta experiencia tienes?"),
            options: [
                ("beginner", Phrase("Just starting", "Ich fange gerade an", "Je débute", "Estoy empezando")),
                (
                    "intermediate",
                    Phrase("Some experience", "Etwas Erfahrung", "Un peu d'expérience", "Algo de experiencia")
                ),
                ("advanced", Phrase("Very experienced", "Sehr erfahren", "Très expérimenté", "Mucha experiencia")),
            ]),
        Topic(
            stem: "focus_areas", types: ["multi_choice"], kind: .multipleChoice,
            title: Phrase(
                "Which areas do you want to focus on?", "Worauf möchtest du dich konzentrieren?",
                "Sur quoi veux-tu te concentrer ?", "¿En qué quieres centrarte?"),
            options: [
                ("back", Phrase("Back", "Rücken", "Dos", "Espalda")),
                ("core", Phrase("Core", "Rumpf", "Sangle abdominale", "Abdomen")),
                ("legs", Phrase("Legs", "Beine", "Jambes", "Piernas")),
                ("mobility", Phrase("Mobility", "Beweglichkeit", "Mobilité", "Movilidad")),
                ("breathing", Phrase("Breathing", "Atmung", "Respiration", "Respiración")),
            ]),
        Topic(
            stem: "schedule", types: ["single_choice"], kind: .choice,
            title: Phrase(
                "When do you prefer to practise?", "Wann übst du am liebsten?",
                "Quand préfères-tu t'entraîner ?", "¿Cuándo prefieres practicar?"),
            options: [
                ("morning", Phrase("Morning", "Morgens", "Le matin", "Por la mañana")),
                ("midday", Phrase("Lunch break", "Mittagspause", "Pause déjeuner", "En la pausa del almuerzo")),
                ("evening", Phrase("Evening", "Abends", "Le soir", "Por la noche")),
            ]),
        Topic(
            stem: "diet", types: ["single_choice", "picture_choice"], kind: .choice,
            title: Phrase(
                "Do you follow a diet?", "Ernährst du dich auf eine bestimmte Weise?",
                "Suis-tu un régime particulier ?", "¿Sigues alguna dieta?"),
            options: [
                ("none", Phrase("No preference", "Keine Vorliebe", "Aucune préférence", "Sin preferencia")),
                ("vegetarian", Phrase("Vegetarian", "Vegetarisch", "Végétarien", "Vegetariana")),
                ("vegan", Phrase("Vegan", "Vegan", "Végétalien", "Vegana")),
                ("low_carb", Phrase("Low carb", "Low Carb", "Pauvre en glucides", "Baja en carbohidratos")),
            ]),
        Topic(
            stem: "reminders", types: ["yes_no"], kind: .choice,
            title: Phrase(
                "Would you like daily reminders?", "Möchtest du tägliche Erinnerungen?",
                "Veux-tu des rappels quotidiens ?", "¿Quieres recordatorios diarios?"),
            options: [
                ("yes", Phrase("Yes", "Ja", "Oui", "Sí")),
                ("no", Phrase("Not now", "Jetzt nicht", "Pas maintenant", "Ahora no")),
            ]),
        Topic(
            stem: "days_per_week", types: ["slider", "number_input"], kind: .number(min: 1, max: 7),
            title: Phrase(
                "How many days a week can you train?", "An wie vielen Tagen pro Woche kannst du trainieren?",
                "Combien de jours par semaine peux-tu t'entraîner ?", "¿Cuántos días a la semana puedes entrenar?"),
            suffix: Phrase("days", "Tage", "jours", "días")),
        Topic(
            stem: "age", types: ["number_input"], kind: .number(min: 16, max: 90),
            title: Phrase("How old are you?", "Wie alt bist du?", "Quel âge as-tu ?", "¿Cuántos años tienes?"),
            placeholder: Phrase("e.g. 32", "z. B. 32", "ex. 32", "p. ej. 32")),
        Topic(
            stem: "energy", types: ["opinion_scale"], kind: .number(min: 1, max: 5),
            title: Phrase(
                "How is your energy lately?", "Wie ist deine Energie in letzter Zeit?",
                "Comment est ton énergie ces temps-ci ?", "¿Cómo está tu energía últimamente?")),
        Topic(
            stem: "sleep_quality", types: ["rating"], kind: .number(min: 1, max: 5),
            title: Phrase("How well do you sleep?", "Wie gut schläfst du?", "Dors-tu bien ?", "¿Qué tal duermes?")),
        Topic(
            stem: "session_minutes", types: ["slider"], kind: .number(min: 5, max: 60),
            title: Phrase(
                "How many minutes a day?", "Wie viele Minuten pro Tag?",
                "Combien de minutes par jour ?", "¿Cuántos minutos al día?"),
            suffix: Phrase("min", "Min.", "min", "min")),
        Topic(
            stem: "stress_level", types: ["opinion_scale"], kind: .number(min: 1, max: 10),
            title: Phrase(
                "How stressed do you feel?", "Wie gestresst fühlst du dich?",
                "À quel point te sens-tu stressé ?", "¿Cuánto estrés sientes?")),
        Topic(
            stem: "motivation", types: ["long_text"], kind: .text,
            title: Phrase("What motivates you?", "Was motiviert dich?", "Qu'est-ce qui te motive ?", "¿Qué te motiva?"),
            placeholder: Phrase(
                "Tell us in a few words", "Erzähl es uns in wenigen Worten",
                "Dis-le-nous en quelques mots", "Cuéntanoslo en pocas palabras")),
        Topic(
            stem: "first_name", types: ["short_text", "text_input"], kind: .text,
            title: Phrase(
                "What should we call you?", "Wie dürfen wir dich nennen?",
                "Comment doit-on t'appeler ?", "¿Cómo quieres que te llamemos?"),
            placeholder: Phrase("First name", "Vorname", "Prénom", "Nombre")),
        Topic(
            stem: "email", types: ["email"], kind: .text,
            title: Phrase(
                "Where should we send your plan?", "Wohin sollen wir deinen Plan schicken?",
                "Où devons-nous envoyer ton programme ?", "¿A dónde te enviamos tu plan?"),
            placeholder: Phrase("you@example.com", "du@beispiel.de", "toi@exemple.fr", "tu@ejemplo.es")),
        Topic(
            stem: "phone", types: ["phone"], kind: .text,
            title: Phrase(
                "Your number for coaching tips", "Deine Nummer für Coaching-Tipps",
                "Ton numéro pour les conseils de coaching", "Tu número para consejos de coaching")),
        Topic(
            stem: "birthday", types: ["date_input"], kind: .text,
            title: Phrase(
                "When is your birthday?", "Wann hast du Geburtstag?",
                "Quelle est ta date de naissance ?", "¿Cuándo es tu cumpleaños?")),
        Topic(
            stem: "contact", types: ["contact_info"], kind: .text,
            title: Phrase(
                "How can we reach you?", "Wie erreichen wir dich?", "Comment te joindre ?",
                "¿Cómo podemos contactarte?")),
        Topic(
            stem: "terms", types: ["legal"], kind: .consent,
            title: Phrase("Before we continue", "Bevor es weitergeht", "Avant de continuer", "Antes de continuar"),
            agreement: Phrase(
                "I agree to the Terms and Privacy Policy", "Ich stimme den AGB und der Datenschutzerklärung zu",
                "J'accepte les conditions et la politique de confidentialité",
                "Acepto los términos y la política de privacidad")),
        Topic(
            stem: "newsletter", types: ["checkbox"], kind: .consent,
            title: Phrase("Stay in the loop", "Bleib auf dem Laufenden", "Reste informé", "Mantente al día"),
            agreement: Phrase(
                "Send me tips and offers by email", "Schick mir Tipps und Angebote per E-Mail",
                "Envoie-moi des conseils et des offres par e-mail", "Envíame consejos y ofertas por correo")),
    ]

    static let welcomeTitles = [
        Phrase("Let's build your plan", "Lass uns deinen Plan erstellen", "Créons ton programme", "Creemos tu plan"),
        Phrase("Welcome!", "Willkommen!", "Bienvenue !", "¡Bienvenido!"),
        Phrase(
            "Feel better in 10 minutes a day", "Fühl dich besser mit 10 Minuten am Tag",
            "Sens-toi mieux en 10 minutes par jour", "Siéntete mejor con 10 minutos al día"),
    ]
    static let welcomeSubtitle = Phrase(
        "It takes less than two minutes.", "Es dauert weniger als zwei Minuten.",
        "Cela prend moins de deux minutes.", "Te llevará menos de dos minutos.")
    static let ctas = [
        Phrase("Continue", "Weiter", "Continuer", "Continuar"),
        Phrase("Get started", "Los geht's", "Commencer", "Empezar"),
        Phrase("Next", "Weiter", "Suivant", "Siguiente"),
    ]
    static let statements = [
        Phrase(
            "Great choice — most people see results in two weeks.",
            "Gute Wahl – die meisten sehen nach zwei Wochen Ergebnisse.",
            "Bon choix — la plupart voient des résultats en deux semaines.",
            "Buena elección: la mayoría ve resultados en dos semanas."),
        Phrase(
            "You're not alone: 8 in 10 members started just like you.",
            "Du bist nicht allein: 8 von 10 Mitgliedern haben genauso angefangen.",
            "Tu n'es pas seul : 8 membres sur 10 ont commencé comme toi.",
            "No estás solo: 8 de cada 10 miembros empezaron como tú."),
        Phrase(
            "Almost done — a quick note before we continue.",
            "Fast geschafft – kurz noch etwas, bevor es weitergeht.",
            "Presque fini — un petit mot avant de continuer.",
            "Casi listo: una nota rápida antes de continuar."),
    ]
    static let featureTitle = Phrase("What you get", "Das bekommst du", "Ce que tu obtiens", "Lo que obtienes")
    static let features = PhraseList([
        Phrase("A plan made for you", "Ein Plan nur für dich", "Un programme fait pour toi", "Un plan hecho para ti"),
        Phrase("Progress tracking", "Fortschritte im Blick", "Suivi des progrès", "Seguimiento del progreso"),
        Phrase(
            "Sessions that work offline", "Einheiten, die offline funktionieren",
            "Des séances qui marchent hors ligne", "Sesiones que funcionan sin conexión"),
    ])
    static let infoTitle = Phrase("How it works", "So funktioniert's", "Comment ça marche", "Cómo funciona")
    static let infoBody = Phrase(
        "Short daily sessions adapt to your progress.", "Kurze tägliche Einheiten passen sich deinem Fortschritt an.",
        "De courtes séances quotidiennes s'adaptent à tes progrès.",
        "Sesiones diarias cortas que se adaptan a tu progreso.")
    static let loadingTitle = Phrase(
        "Building your plan…", "Dein Plan wird erstellt…", "Création de ton programme…", "Creando tu plan…")
    static let loadingSteps = PhraseList([
        Phrase(
            "Analysing your answers", "Antworten werden ausgewertet", "Analyse de tes réponses",
            "Analizando tus respuestas"),
        Phrase("Matching sessions", "Einheiten werden ausgewählt", "Choix des séances", "Eligiendo sesiones"),
        Phrase("Finalising your plan", "Plan wird fertiggestellt", "Finalisation du programme", "Terminando tu plan"),
    ])
    static let resultTitle = Phrase(
        "Your plan is ready", "Dein Plan ist fertig", "Ton programme est prêt", "Tu plan está listo")
    static let resultBody = Phrase(
        "Based on your answers, we picked a 4-week programme.",
        "Basierend auf deinen Antworten haben wir ein 4-Wochen-Programm gewählt.",
        "D'après tes réponses, nous avons choisi un programme de 4 semaines.",
        "Según tus respuestas, elegimos un programa de 4 semanas.")
    static let paywallHeadline = Phrase(
        "Unlock your plan", "Schalte deinen Plan frei", "Débloque ton programme", "Desbloquea tu plan")
    static let benefits = PhraseList([
        Phrase("Personal plan", "Persönlicher Plan", "Programme personnalisé", "Plan personal"),
        Phrase("7-day free trial", "7 Tage gratis testen", "7 jours d'essai gratuit", "7 días de prueba gratis"),
        Phrase("Cancel anytime", "Jederzeit kündbar", "Sans engagement", "Cancela cuando quieras"),
    ])
    static let doneTitles = [
        Phrase("You're all set", "Alles bereit", "Tout est prêt", "Todo listo"),
        Phrase("See you tomorrow", "Bis morgen", "À demain", "Hasta mañana"),
    ]
    static let doneCta = Phrase("Open the app", "App öffnen", "Ouvrir l'app", "Abrir la app")

    static let paywallCopy: [(key: String, phrase: Phrase)] = [
        ("cta.purchase", Phrase("Start free trial", "Gratis testen", "Essai gratuit", "Prueba gratis")),
        (
            "cta.restore",
            Phrase("Restore purchases", "Käufe wiederherstellen", "Restaurer les achats", "Restaurar compras")
        ),
        (
            "cta.terms",
            Phrase("Terms & Privacy", "AGB & Datenschutz", "Conditions et confidentialité", "Términos y privacidad")
        ),
        (
            "hero.subtitle",
            Phrase(
                "Unlock every feature, cancel anytime.", "Alle Funktionen freischalten, jederzeit kündbar.",
                "Toutes les fonctionnalités, sans engagement.", "Todas las funciones, cancela cuando quieras.")
        ),
        ("hero.title", Phrase("Go Premium", "Premium holen", "Passe à Premium", "Hazte Premium")),
    ]

    static let placementAreas = [
        "checkout", "course", "home", "onboarding", "paywall", "profile", "referral", "renewal",
        "settings", "sleep", "streak", "trial", "upsell", "winback", "workout",
    ]
    static let placementSurfaces = ["banner", "inline", "main", "modal", "offer", "push", "quiz", "sheet", "tab"]
    static let funnelNames = [
        ("Goal quiz", "goal-quiz"), ("First-week onboarding", "first-week"), ("Plan builder", "plan-builder"),
        ("Win-back offer", "winback-offer"), ("Trial check-in", "trial-check-in"), ("Sleep setup", "sleep-setup"),
        ("Habit starter", "habit-starter"), ("Upgrade story", "upgrade-story"),
    ]
    static let apps = ["stillpoint", "pulsefit", "dailycalm", "stridehq", "moodmint"]
}
