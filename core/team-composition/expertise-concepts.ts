/** One expertise concept: a stable id, its English label and the words that name it. */
export interface ExpertiseConcept {
  /** Stable kebab-case id, e.g. `interior-design`. */
  id: string;
  /** Canonical label shown to people, e.g. `interior design`. */
  label: string;
  /** English names and common synonyms (the label is implied). */
  en: string[];
  /** French names and common synonyms. */
  fr: string[];
}

// Every capability of the demo organizations and the expertise of the demo needs is named here,
// with their common neighbours. Words too vague to name one expertise alone ("design", "audit",
// "web", "construction") are deliberately absent: they only count inside a longer phrase. A bare
// "visualisation" is 3D visualisation here; "data visualisation", the longer phrase, is analytics.
export const EXPERTISE_CONCEPTS: readonly ExpertiseConcept[] = [
  // Built environment
  { id: 'architecture', label: 'architecture', en: ['architect', 'architectural design', 'building design'], fr: ['architecte', 'conception architecturale', "maîtrise d'œuvre", "maître d'œuvre"] },
  { id: 'interior-design', label: 'interior design', en: ['interior designer', 'interior architecture', 'interior architect', 'space planning', 'workplace design', 'fit out'], fr: ['architecture intérieure', "architecture d'intérieur", "architecte d'intérieur", 'aménagement intérieur', "design d'intérieur", 'agencement', "aménagement d'espace"] },
  { id: 'landscape-architecture', label: 'landscape architecture', en: ['landscape architect', 'landscape design', 'landscaping'], fr: ['paysagiste', 'architecte paysagiste', 'architecture du paysage', 'aménagement paysager'] },
  { id: 'urban-planning', label: 'urban planning', en: ['town planning', 'urban planner', 'urban design'], fr: ['urbanisme', 'urbaniste', 'aménagement urbain'] },
  { id: '3d-modelling', label: '3d modelling', en: ['3d modeling', '3d model', '3d visualisation', '3d visualization', '3d rendering', '3d render', 'visualisation', 'visualization', 'archviz', 'architectural visualisation', 'photorealistic render', 'bim', 'cad', 'building information modelling'], fr: ['modélisation 3d', 'maquette 3d', 'maquette numérique', 'rendu 3d', 'visualisation 3d', 'visualisation architecturale', 'perspective 3d', 'cao', 'dao'] },
  { id: 'project-management', label: 'project management', en: ['project manager', 'project coordination', 'project lead', 'programme management', 'pmo', 'site supervision', 'construction management'], fr: ['gestion de projet', 'chef de projet', 'cheffe de projet', 'pilotage', 'pilotage de projet', 'conduite de projet', 'coordination de projet', 'suivi de chantier', 'conduite de travaux', "assistance à maîtrise d'ouvrage", 'amo'] },
  { id: 'structural-engineering', label: 'structural engineering', en: ['structural engineer', 'structural design', 'civil engineering', 'civil engineer', 'structural analysis'], fr: ['ingénierie structure', 'ingénieur structure', 'calcul de structure', 'bureau d’études structure', 'génie civil', 'ingénierie structurelle'] },
  { id: 'timber-construction', label: 'timber construction', en: ['timber frame', 'timber', 'wood construction', 'mass timber', 'carpentry'], fr: ['construction bois', 'ossature bois', 'charpente', 'charpentier', 'menuiserie'] },
  { id: 'masonry', label: 'masonry', en: ['mason', 'bricklaying', 'stonework'], fr: ['maçonnerie', 'maçon', 'gros œuvre'] },
  { id: 'lighting-design', label: 'lighting design', en: ['lighting designer', 'lighting', 'daylighting'], fr: ['éclairage', 'conception lumière', 'concepteur lumière', 'conception éclairage', 'éclairagiste'] },
  { id: 'acoustics', label: 'acoustics', en: ['acoustic', 'acoustic consultant', 'acoustic study', 'acoustician'], fr: ['acoustique', 'acousticien', 'étude acoustique'] },
  // Energy
  { id: 'solar-installation', label: 'solar installation', en: ['solar', 'solar installer', 'solar panel', 'photovoltaic', 'photovoltaics', 'pv'], fr: ['installation solaire', 'installateur solaire', 'panneau solaire', 'solaire', 'photovoltaïque'] },
  { id: 'energy-audit', label: 'energy audit', en: ['energy efficiency', 'energy assessment', 'energy performance', 'energy auditor'], fr: ['audit énergétique', 'diagnostic énergétique', 'bilan énergétique', 'efficacité énergétique', 'performance énergétique', 'dpe'] },
  { id: 'building-retrofit', label: 'building retrofit', en: ['retrofit', 'energy retrofit', 'energy renovation', 'deep renovation', 'thermal renovation', 'insulation'], fr: ['rénovation énergétique', 'rénovation thermique', 'réhabilitation énergétique', 'isolation thermique'] },
  { id: 'hvac', label: 'heating and ventilation', en: ['hvac', 'heat pump', 'heating', 'ventilation', 'air conditioning'], fr: ['pompe à chaleur', 'chauffage', 'climatisation', 'cvc', 'génie climatique'] },
  { id: 'electrical-engineering', label: 'electrical engineering', en: ['electrical engineer', 'electrician', 'electrical installation', 'electrical work'], fr: ['génie électrique', 'électricien', 'électricité', 'installation électrique', 'ingénierie électrique'] },
  { id: 'sustainability', label: 'sustainability', en: ['csr', 'carbon footprint', 'life cycle assessment', 'lca', 'environmental impact'], fr: ['développement durable', 'rse', 'bilan carbone', 'analyse de cycle de vie', 'acv', 'impact environnemental'] },
  // Manufacturing
  { id: 'mechanical-engineering', label: 'mechanical engineering', en: ['mechanical engineer', 'mechanical design', 'mechanics'], fr: ['génie mécanique', 'ingénierie mécanique', 'ingénieur mécanique', 'conception mécanique', 'mécanique'] },
  { id: 'industrial-design', label: 'industrial design', en: ['industrial designer', 'product housing', 'physical product design'], fr: ['design industriel', 'designer industriel', 'design produit', 'designer produit'] },
  { id: 'prototyping', label: 'prototyping', en: ['prototype', 'rapid prototyping', '3d printing', 'proof of concept'], fr: ['prototypage', 'prototypage rapide', 'impression 3d'] },
  { id: 'cnc-machining', label: 'cnc machining', en: ['cnc', 'machining', 'milling', 'machinist'], fr: ['usinage', 'usinage cnc', 'fraisage', 'commande numérique'] },
  { id: 'manufacturing', label: 'manufacturing', en: ['small series', 'small series manufacturing', 'injection moulding', 'injection molding', 'production line'], fr: ['fabrication', 'petite série', 'moulage par injection', 'production industrielle'] },
  { id: 'robotics', label: 'robotics', en: ['robot', 'industrial automation', 'robotic arm'], fr: ['robotique', 'automatisme', 'automatisation'] },
  { id: 'electronics', label: 'electronics', en: ['electronic design', 'pcb', 'circuit design', 'hardware design'], fr: ['électronique', 'carte électronique', 'conception électronique'] },
  { id: 'embedded-software', label: 'embedded software', en: ['firmware', 'embedded systems', 'embedded', 'iot', 'internet of things'], fr: ['logiciel embarqué', 'systèmes embarqués', 'embarqué', 'micrologiciel', 'objets connectés'] },
  // Software and data
  { id: 'web-development', label: 'web development', en: ['web developer', 'website', 'web site', 'web app', 'web application', 'web platform', 'frontend', 'front end', 'backend', 'back end', 'full stack', 'node js', 'javascript', 'typescript', 'react js', 'e commerce', 'online shop', 'booking platform'], fr: ['développement web', 'développeur web', 'développeuse web', 'site internet', 'site web', 'application web', 'plateforme web', 'boutique en ligne'] },
  { id: 'mobile-development', label: 'mobile development', en: ['mobile developer', 'mobile app', 'mobile application', 'ios', 'android', 'react native', 'flutter'], fr: ['développement mobile', 'développeur mobile', 'application mobile', 'appli mobile'] },
  { id: 'ux-design', label: 'ux design', en: ['ux', 'ui', 'ui design', 'ux ui', 'ui ux', 'ux designer', 'user experience', 'user interface', 'interaction design', 'design system'], fr: ['expérience utilisateur', 'interface utilisateur', 'design ux', 'design d’interface', 'ergonomie', 'ergonomie web'] },
  { id: 'user-research', label: 'user research', en: ['usability testing', 'usability test', 'user testing', 'user interview', 'ux research'], fr: ['recherche utilisateur', 'test utilisateur', 'entretien utilisateur', "test d'utilisabilité"] },
  { id: 'accessibility', label: 'accessibility', en: ['wcag', 'a11y', 'accessibility audit', 'inclusive design'], fr: ['accessibilité', 'rgaa', "audit d'accessibilité", 'conception inclusive'] },
  { id: 'data-engineering', label: 'data engineering', en: ['data engineer', 'data pipeline', 'etl', 'data warehouse', 'big data', 'data ingestion', 'dbt'], fr: ['ingénierie des données', 'ingénierie de données', 'ingénieur données', 'pipeline de données', 'entrepôt de données'] },
  { id: 'machine-learning', label: 'machine learning', en: ['artificial intelligence', 'deep learning', 'data science', 'data scientist', 'ml', 'forecasting model', 'demand forecasting', 'predictive model', 'nlp', 'llm', 'computer vision'], fr: ['apprentissage automatique', 'intelligence artificielle', 'ia', 'science des données', 'modèle de prévision', 'prévision de la demande', 'vision par ordinateur'] },
  { id: 'analytics', label: 'analytics', en: ['data analysis', 'data analytics', 'data analyst', 'business intelligence', 'bi', 'dashboard', 'reporting', 'data visualisation', 'data visualization', 'dataviz', 'analytics engineer'], fr: ['analyse de données', 'analyste de données', 'tableau de bord', 'visualisation de données', 'informatique décisionnelle'] },
  { id: 'python', label: 'python', en: ['python developer', 'django', 'pandas'], fr: ['développeur python', 'développement python'] },
  { id: 'databases', label: 'databases', en: ['database', 'postgresql', 'postgres', 'mysql', 'sql', 'mongodb', 'database administration'], fr: ['base de données', 'administration de base de données'] },
  { id: 'devops', label: 'devops', en: ['dev ops', 'kubernetes', 'k8s', 'docker', 'ci cd', 'continuous integration', 'infrastructure as code', 'gitops', 'site reliability', 'sre', 'cloud infrastructure'], fr: ['intégration continue', 'déploiement continu', 'infrastructure cloud', 'infogérance'] },
  { id: 'penetration-testing', label: 'penetration testing', en: ['penetration test', 'pentest', 'pen test', 'ethical hacking', 'red team'], fr: ["test d'intrusion", 'tests d’intrusion', 'pentesteur', 'hacking éthique'] },
  { id: 'security-audit', label: 'security audit', en: ['cybersecurity', 'cyber security', 'it security', 'information security', 'security assessment', 'security review', 'security awareness', 'iso 27001'], fr: ['audit de sécurité', 'cybersécurité', 'sécurité informatique', 'sécurité des systèmes', 'sensibilisation à la sécurité'] },
  { id: 'software-testing', label: 'software testing', en: ['quality assurance', 'qa', 'test automation', 'software tester'], fr: ['test logiciel', 'tests automatisés', 'recette', 'assurance qualité'] },
  // Communication and media
  { id: 'copywriting', label: 'copywriting', en: ['copywriter', 'content writing', 'content writer', 'writing', 'launch copy', 'editorial content', 'plain language'], fr: ['rédaction', 'rédacteur', 'rédactrice', 'rédaction web', 'contenu éditorial', 'création de contenu', 'écriture'] },
  { id: 'brand-strategy', label: 'brand strategy', en: ['branding', 'brand identity', 'visual identity', 'brand refresh', 'naming', 'brand positioning'], fr: ['stratégie de marque', 'identité visuelle', 'identité de marque', 'plateforme de marque', 'positionnement de marque'] },
  { id: 'social-media', label: 'social media', en: ['social media manager', 'social network', 'community management', 'community manager', 'instagram', 'linkedin'], fr: ['réseaux sociaux', 'réseau social', 'gestion des réseaux sociaux', 'animation de communauté'] },
  { id: 'digital-marketing', label: 'digital marketing', en: ['marketing', 'online marketing', 'growth marketing', 'emailing', 'online advertising', 'paid media'], fr: ['marketing digital', 'marketing numérique', 'webmarketing', 'publicité en ligne'] },
  { id: 'seo', label: 'search engine optimisation', en: ['seo', 'search engine optimization', 'search marketing'], fr: ['référencement', 'référencement naturel', 'référencement payant'] },
  { id: 'public-relations', label: 'public relations', en: ['pr', 'press relations', 'media relations', 'communication', 'communications'], fr: ['relations presse', 'relations publiques', 'attaché de presse', 'communication'] },
  { id: 'graphic-design', label: 'graphic design', en: ['graphic designer', 'infographic', 'infographics', 'layout', 'print design', 'illustration', 'illustrator', 'annual report design'], fr: ['graphisme', 'graphiste', 'design graphique', 'infographie', 'mise en page', 'illustrateur', 'illustratrice'] },
  { id: 'photography', label: 'photography', en: ['photographer', 'photo shoot'], fr: ['photographie', 'photographe', 'shooting photo', 'reportage photo'] },
  { id: 'video-production', label: 'video production', en: ['video', 'videographer', 'filmmaking', 'film production', 'documentary', 'video editing'], fr: ['production vidéo', 'vidéo', 'vidéaste', 'réalisation vidéo', 'documentaire', 'montage vidéo', 'tournage'] },
  { id: 'motion-design', label: 'motion design', en: ['motion designer', 'motion graphics', 'animation', '2d animation', 'explainer video', 'animated video'], fr: ['animation 2d', 'vidéo explicative', 'vidéo animée', 'graphiste animateur'] },
  { id: 'sound-design', label: 'sound design', en: ['sound designer', 'audio mixing', 'sound mix', 'audio post production'], fr: ['design sonore', 'conception sonore', 'mixage audio', 'mixage son', 'ingénieur du son'] },
  { id: 'voice-over', label: 'voice-over', en: ['voiceover', 'voice actor', 'voice talent', 'dubbing', 'narration'], fr: ['voix off', 'comédien voix', 'doublage'] },
  { id: 'translation', label: 'translation', en: ['translator', 'translate', 'multilingual', 'interpreting', 'interpreter'], fr: ['traduction', 'traducteur', 'traductrice', 'traduire', 'multilingue', 'interprétariat', 'interprète'] },
  { id: 'localisation', label: 'localisation', en: ['localization', 'l10n', 'internationalisation', 'internationalization', 'i18n', 'terminology', 'terminology database'], fr: ['terminologie', 'base terminologique', 'adaptation linguistique'] },
  { id: 'event-management', label: 'event management', en: ['event planning', 'event organisation', 'event organization', 'event production'], fr: ['événementiel', "organisation d'événements", 'organisation événementielle'] },
  { id: 'training', label: 'training', en: ['trainer', 'workshop facilitation', 'e learning', 'teaching', 'upskilling'], fr: ['formation', 'formateur', 'formatrice', 'animation de formation'] },
  // Law and finance
  { id: 'contract-law', label: 'contract law', en: ['contract drafting', 'contract review', 'legal counsel', 'legal advice', 'business law', 'lawyer', 'attorney'], fr: ['droit des contrats', 'rédaction de contrats', 'revue de contrats', 'conseil juridique', 'droit des affaires', 'avocat', 'avocate', 'juriste'] },
  { id: 'gdpr-compliance', label: 'gdpr compliance', en: ['gdpr', 'data protection', 'data protection officer', 'dpo', 'privacy compliance', 'personal data'], fr: ['rgpd', 'conformité rgpd', 'protection des données', 'délégué à la protection des données', 'données personnelles'] },
  { id: 'intellectual-property', label: 'intellectual property', en: ['patent', 'trademark', 'copyright', 'ip law'], fr: ['propriété intellectuelle', 'brevet', 'marque déposée', "droit d'auteur"] },
  { id: 'accounting', label: 'accounting', en: ['accountant', 'bookkeeping', 'chartered accountant', 'financial audit'], fr: ['comptabilité', 'comptable', 'expert comptable', 'audit financier'] },
];
